/**
 * The sign-in.html entry: the page the sign-in window opens (Office dialog in Excel, a popup in the
 * preview). First visit, `?start=<provider URL>`: go on to the provider (after checking it is the relay's
 * provider). Second visit, the provider's redirect with `?code&state` or `?error`: hand that URL to the
 * pane, which holds the PKCE verifier and redeems the code, and close. Like the taskpane's entry, this
 * file reads the window and Office globals itself; the decisions are in startCheck.ts.
 */
import { AUTH_CONFIG_PATH, authConfig } from '../connection/access';
import { checkStart, isCallback } from './startCheck';
import { SIGN_IN_CHANNEL, type SignInMessage } from './windows';

const status = (text: string) => {
  document.getElementById('status')!.textContent = text;
};

async function goToProvider(start: string) {
  const answer = await fetch(AUTH_CONFIG_PATH, { headers: { accept: 'application/json' } })
    .then((r) => r.json())
    .catch(() => null);
  const parsed = authConfig.safeParse(answer);
  const decision = checkStart(start, parsed.success ? parsed.data : null);
  if (!decision.ok) return status(decision.message);
  status(`Taking you to ${new URL(decision.url).host} to sign in…`);
  window.location.replace(decision.url);
}

async function handBack() {
  const message: SignInMessage = { type: 'grc-sign-in', url: window.location.href };
  // The code is single-use and useless without the pane's verifier; still, keep it out of the history.
  history.replaceState(null, '', window.location.pathname);
  await window.grcOfficeScript;
  let toOffice = false;
  if (typeof Office !== 'undefined' && typeof Office.onReady === 'function') {
    await Office.onReady();
    // In Excel's dialog the pane listens for DialogMessageReceived. Outside a dialog Office has no parent to
    // tell and may throw: the BroadcastChannel below is then the way back.
    try {
      if (typeof Office.context?.ui?.messageParent === 'function') {
        Office.context.ui.messageParent(JSON.stringify(message));
        toOffice = true;
      }
    } catch {
      toOffice = false;
    }
  }
  if (toOffice) return status('Signed in. You can close this window.');
  const channel = new BroadcastChannel(SIGN_IN_CHANNEL);
  channel.postMessage(message);
  channel.close();
  status('Signed in. You can close this window.');
  window.close();
}

const search = new URLSearchParams(window.location.search);
const start = search.get('start');
(start ? goToProvider(start) : isCallback(search) ? handBack() : Promise.resolve(status('Open this page from the add-in: press Sign in on its Connect tab.'))).catch(
  (e: unknown) => status(`Sign-in failed: ${e instanceof Error ? e.message : String(e)}`),
);
