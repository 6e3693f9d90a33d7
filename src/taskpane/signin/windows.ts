import { SignInCancelled, SignInError } from './signInError';

/**
 * Where the provider's login page opens. It cannot run inside the taskpane (providers refuse to be framed,
 * and Office on the web shows the pane in an iframe), so it opens in a window of its own at a page of the
 * add-in's own origin, `sign-in.html`, which goes on to the provider and, once the provider sends the
 * browser back to it, hands the answer to the pane: through Office's dialog API in Excel
 * (`displayDialogAsync` / `messageParent`), through a BroadcastChannel of the origin in the preview's popup.
 * The PKCE verifier and the state never leave the pane: the window only carries the provider's URLs.
 */
export const SIGN_IN_PAGE = 'sign-in.html';
/** The preview popup's way back: same origin only, and it works when the provider's pages cut the popup off from its opener. */
export const SIGN_IN_CHANNEL = 'grc-sheets-sign-in';

export interface SignInAttempt {
  /** Resolves with the URL the provider sent the window back to (code and state, or an error). */
  result: Promise<string>;
  /** Stops waiting (the Cancel button) and closes the window where it can. */
  cancel(): void;
}

export interface SignInWindow {
  /** `authorizationUrl` is the provider's; the window first opens our own sign-in page, which goes on to it. */
  open(origin: string, authorizationUrl: string): SignInAttempt;
}

export const signInPageUrl = (origin: string, authorizationUrl: string) =>
  `${origin}/${SIGN_IN_PAGE}?start=${encodeURIComponent(authorizationUrl)}`;

export interface SignInMessage {
  type: 'grc-sign-in';
  url: string;
}

export const isSignInMessage = (m: unknown): m is SignInMessage =>
  typeof m === 'object' && m !== null && (m as SignInMessage).type === 'grc-sign-in' && typeof (m as SignInMessage).url === 'string';

const cancelled = () => new SignInCancelled('Sign-in cancelled.');

/** The preview: a popup window, its answer on the origin's BroadcastChannel. */
export function popupSignIn(win: Pick<Window, 'open'>, makeChannel: (name: string) => BroadcastChannel): SignInWindow {
  return {
    open(origin, authorizationUrl) {
      const channel = makeChannel(SIGN_IN_CHANNEL);
      let settle: { resolve(url: string): void; reject(e: Error): void } | null = null;
      const result = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
      const done = () => {
        channel.close();
        settle = null;
      };
      const popup = win.open(signInPageUrl(origin, authorizationUrl), 'grc-sheets-sign-in', 'popup,width=520,height=700');
      if (!popup) {
        settle!.reject(new SignInError('The browser blocked the sign-in window. Allow pop-up windows for this page, then press Sign in again.'));
        done();
        return { result, cancel: () => undefined };
      }
      channel.onmessage = (event: MessageEvent) => {
        if (!isSignInMessage(event.data) || !settle) return;
        settle.resolve(event.data.url);
        done();
      };
      return {
        result,
        cancel() {
          settle?.reject(cancelled());
          done();
          popup.close();
        },
      };
    },
  };
}

/** The part of `Office.context.ui` the dialog uses (a stand-in in tests). */
export interface OfficeUi {
  displayDialogAsync(
    url: string,
    options: { height: number; width: number; promptBeforeOpen?: boolean },
    callback: (r: { status: string; error?: { code: number; message: string }; value?: OfficeDialog }) => void,
  ): void;
}
export interface OfficeDialog {
  addEventHandler(type: string, handler: (arg: { message?: string; error?: number }) => void): void;
  close(): void;
}

/** What Office's dialog error codes mean for the person signing in. */
function dialogFailure(code: number | undefined, message: string | undefined): SignInError {
  switch (code) {
    case 12007:
      return new SignInError('A sign-in window is already open. Finish signing in there, or close it and press Sign in again.');
    case 12009:
      return new SignInError('The sign-in window was not allowed to open. Press Sign in again and allow it.');
    case 12011:
      return new SignInError("The browser's security settings block the sign-in window. Add the add-in's site and the provider's to the same security zone, or ask your administrator.");
    default:
      return new SignInError(`Office could not open the sign-in window (${code ?? 'no code'}: ${message ?? 'no message'}).`);
  }
}

/** Excel: Office's dialog API. Event names as Office.EventType spells them. */
export function officeDialogSignIn(ui: OfficeUi): SignInWindow {
  return {
    open(origin, authorizationUrl) {
      let dialog: OfficeDialog | null = null;
      let settle: { resolve(url: string): void; reject(e: Error): void } | null = null;
      const result = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
      const finish = (f: (s: NonNullable<typeof settle>) => void) => {
        if (!settle) return;
        f(settle);
        settle = null;
        dialog?.close();
      };
      // promptBeforeOpen is left to Office: on the web it asks before opening the window when the browser
      // would otherwise block it (12009 is the person declining).
      ui.displayDialogAsync(signInPageUrl(origin, authorizationUrl), { height: 70, width: 35 }, (r) => {
        if (r.status !== 'succeeded' || !r.value) return finish((s) => s.reject(dialogFailure(r.error?.code, r.error?.message)));
        dialog = r.value;
        dialog.addEventHandler('dialogMessageReceived', (arg) => {
          let data: unknown = null;
          try {
            data = JSON.parse(arg.message ?? '');
          } catch {
            // not ours
          }
          if (isSignInMessage(data)) finish((s) => s.resolve(data.url));
        });
        // 12006: the person closed the window; 12002/12003: the page could not be shown.
        dialog.addEventHandler('dialogEventReceived', (arg) =>
          finish((s) =>
            s.reject(
              arg.error === 12006
                ? new SignInError('The sign-in window was closed before signing in finished.')
                : new SignInError(`The sign-in window failed (Office code ${arg.error}). Press Sign in again.`),
            ),
          ),
        );
      });
      return { result, cancel: () => finish((s) => s.reject(cancelled())) };
    },
  };
}
