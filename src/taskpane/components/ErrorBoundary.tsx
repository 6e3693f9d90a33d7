import {
  Button,
  FluentProvider,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  webLightTheme,
} from '@fluentui/react-components';
import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface Props {
  children: ReactNode;
  copy(text: string): Promise<void>;
  /** Where unhandled promise rejections are reported; the window in the taskpane, absent in tests. */
  events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
}

interface State {
  /** A render error: the pane below cannot be shown. */
  crashed: { error: unknown; componentStack?: string } | null;
  /** A promise nobody handled: the pane still works, but something the user asked for did not finish. */
  background: unknown;
}

/** What "Copy details" puts on the clipboard for a support ticket: never workbook data or credentials. */
export function errorDetails(error: unknown, componentStack?: string): string {
  const e = error as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown };
  const lines = [
    `GRC Sheets error at ${new Date().toISOString()}`,
    `${typeof e?.name === 'string' ? e.name : 'Error'}${typeof e?.code === 'string' ? ` (${e.code})` : ''}: ${typeof e?.message === 'string' ? e.message : String(error)}`,
  ];
  if (typeof e?.stack === 'string') lines.push('', e.stack);
  if (componentStack) lines.push('', 'Component stack:', componentStack.trim());
  return lines.join('\n');
}

export const messageOfError = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * The last line of defence: a render error shows a readable message and a Copy details button instead
 * of a blank pane, and a promise rejection nobody handled is shown above the pane instead of vanishing
 * (screens handle their own errors; this is for the ones they missed).
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { crashed: null, background: null };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { crashed: { error } };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.setState({ crashed: { error, componentStack: info.componentStack ?? undefined } });
  }

  private onRejection = (event: Event) => {
    const reason = (event as PromiseRejectionEvent).reason;
    event.preventDefault();
    this.setState({ background: reason ?? new Error('unknown') });
  };

  override componentDidMount(): void {
    this.props.events?.addEventListener('unhandledrejection', this.onRejection);
  }

  override componentWillUnmount(): void {
    this.props.events?.removeEventListener('unhandledrejection', this.onRejection);
  }

  private bar(
    title: string,
    error: unknown,
    componentStack: string | undefined,
    dismiss?: () => void,
  ): ReactNode {
    // Its own provider: the boundary sits outside the App's, which may be what failed.
    return (
      <FluentProvider theme={webLightTheme}>
        <MessageBar intent="error" layout="multiline" role="alert" data-testid="error-boundary">
          <MessageBarBody>
            <MessageBarTitle>{title}</MessageBarTitle>
            {messageOfError(error)}
          </MessageBarBody>
          <MessageBarActions>
            <Button
              onClick={() => void this.props.copy(errorDetails(error, componentStack)).catch(() => undefined)}
              data-testid="copy-error-details"
            >
              Copy details
            </Button>
            {dismiss && <Button onClick={dismiss}>Dismiss</Button>}
          </MessageBarActions>
        </MessageBar>
      </FluentProvider>
    );
  }

  override render(): ReactNode {
    const { crashed, background } = this.state;
    if (crashed) {
      return (
        <div style={{ padding: 12 }}>
          {this.bar(
            'GRC Sheets stopped: close and reopen the add-in. Your workbook is unchanged by this error; copy the details for support.',
            crashed.error,
            crashed.componentStack,
          )}
        </div>
      );
    }
    return (
      <>
        {background !== null &&
          this.bar('Something the add-in was doing did not finish', background, undefined, () =>
            this.setState({ background: null }),
          )}
        {this.props.children}
      </>
    );
  }
}
