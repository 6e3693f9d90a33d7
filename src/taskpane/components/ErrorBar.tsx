import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import type { UserMessage } from '../connection/messages';

export interface Props {
  message: UserMessage;
  intent?: 'error' | 'warning' | 'success' | 'info';
  testId?: string;
}

/** A failure in words the user can act on: a title and what to do. */
export function ErrorBar({ message, intent = 'error', testId }: Props) {
  return (
    <MessageBar intent={intent} layout="multiline" data-testid={testId} role={intent === 'error' ? 'alert' : 'status'}>
      <MessageBarBody>
        <MessageBarTitle>{message.title}</MessageBarTitle>
        {message.detail}
      </MessageBarBody>
    </MessageBar>
  );
}
