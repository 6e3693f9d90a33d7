import { MessageBar, MessageBarBody, MessageBarTitle, makeStyles, tokens } from '@fluentui/react-components';
import type { UserMessage } from '../connection/messages';

const useStyles = makeStyles({
  steps: { margin: 0, marginBlockStart: tokens.spacingVerticalXS, paddingInlineStart: tokens.spacingHorizontalL },
  details: { marginBlockStart: tokens.spacingVerticalXS, fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground2 },
  summary: { cursor: 'pointer', color: tokens.colorNeutralForeground1 },
});

export interface Props {
  message: UserMessage;
  intent?: 'error' | 'warning' | 'success' | 'info';
  testId?: string;
}

/** A failure in words the user can act on: a title and what to do; a reference for support behind Details. */
export function ErrorBar({ message, intent = 'error', testId }: Props) {
  const s = useStyles();
  return (
    <MessageBar intent={intent} layout="multiline" data-testid={testId} role={intent === 'error' ? 'alert' : 'status'}>
      <MessageBarBody>
        <MessageBarTitle>{message.title}</MessageBarTitle>
        {message.detail}
        {message.steps && (
          <ol className={s.steps}>
            {message.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        )}
        {message.reference && (
          <details className={s.details} data-testid={testId && `${testId}-details`}>
            <summary className={s.summary}>Details</summary>
            {message.reference}
          </details>
        )}
      </MessageBarBody>
    </MessageBar>
  );
}
