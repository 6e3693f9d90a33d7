import {
  Link,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  makeStyles,
  tokens,
  useId,
} from '@fluentui/react-components';
import { useState } from 'react';
import type { UserMessage } from '../connection/messages';

const useStyles = makeStyles({
  bar: { paddingBlock: tokens.spacingVerticalXS },
  toggle: { marginInlineStart: tokens.spacingHorizontalXS, whiteSpace: 'nowrap' },
  steps: {
    margin: 0,
    marginBlockStart: tokens.spacingVerticalXS,
    paddingInlineStart: tokens.spacingHorizontalL,
  },
});

export interface Props {
  message: UserMessage;
  intent?: 'warning' | 'info';
  testId?: string;
}

/**
 * A notice the user should know of but need not read before acting: its title and a Details link, the
 * detail and steps unfolded on demand (and in the page all along, for screen readers' "hidden" handling
 * and for search). Keeps what follows it (a template, the Validate and Post buttons) in view in a
 * 320 px taskpane.
 */
export function FoldedNotice({ message, intent = 'warning', testId }: Props) {
  const s = useStyles();
  const [open, setOpen] = useState(false);
  const id = useId('notice-detail');
  return (
    <MessageBar intent={intent} layout="multiline" className={s.bar} data-testid={testId} role="status">
      <MessageBarBody>
        <MessageBarTitle>{message.title}</MessageBarTitle>
        <Link
          as="button"
          className={s.toggle}
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
          data-testid={testId && `${testId}-details`}
        >
          {open ? 'Hide details' : 'Details'}
        </Link>
        <div id={id} hidden={!open}>
          {message.detail}
          {message.steps && (
            <ol className={s.steps}>
              {message.steps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          )}
        </div>
      </MessageBarBody>
    </MessageBar>
  );
}
