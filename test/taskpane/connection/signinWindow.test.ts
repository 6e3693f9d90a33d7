/**
 * The sign-in window's two halves that do not need a browser: the sign-in page's check that it only
 * forwards to the relay's provider (no open redirect from the add-in's address), and the Office dialog
 * opener's handling of what Office reports (a stand-in for Office.context.ui, as host.test.ts does for the theme).
 */
import { checkStart, isCallback } from '../../../src/taskpane/signin/startCheck';
import { officeDialogSignIn, signInPageUrl, type OfficeDialog, type OfficeUi } from '../../../src/taskpane/signin/windows';

const config = { personalKeys: false, signIn: { issuer: 'https://login.example.com/tenant/v2.0', clientId: 'c', scopes: 'openid' } };

test('the sign-in page goes on only to the provider the relay names', () => {
  expect(checkStart('https://login.example.com/tenant/oauth2/v2.0/authorize?x=1', config)).toEqual({ ok: true, url: 'https://login.example.com/tenant/oauth2/v2.0/authorize?x=1' });
  expect(checkStart('https://evil.example.net/authorize', config)).toMatchObject({ ok: false, message: expect.stringContaining('https://login.example.com') });
  expect(checkStart('http://login.example.com/authorize', config)).toMatchObject({ ok: false });
  expect(checkStart('javascript:alert(1)', config)).toMatchObject({ ok: false });
  expect(checkStart('not a url', config)).toMatchObject({ ok: false, message: expect.stringContaining('damaged') });
  expect(checkStart('https://login.example.com/authorize', { personalKeys: true, signIn: null })).toMatchObject({ ok: false });
  const loopback = { personalKeys: true, signIn: { issuer: 'http://127.0.0.1:4000', clientId: 'c', scopes: '' } };
  expect(checkStart('http://127.0.0.1:4000/auth?x', loopback)).toMatchObject({ ok: true });
});

test('the provider coming back is recognised by its code, state or error', () => {
  expect(isCallback(new URLSearchParams('code=a&state=b'))).toBe(true);
  expect(isCallback(new URLSearchParams('error=access_denied'))).toBe(true);
  expect(isCallback(new URLSearchParams('start=x'))).toBe(false);
});

function officeStandIn(outcome: { status: string; error?: { code: number; message: string } }) {
  const handlers = new Map<string, (arg: { message?: string; error?: number }) => void>();
  const opened: string[] = [];
  let closed = 0;
  const dialog: OfficeDialog = { addEventHandler: (t, h) => void handlers.set(t, h), close: () => void closed++ };
  const ui: OfficeUi = {
    displayDialogAsync(url, _options, callback) {
      opened.push(url);
      callback(outcome.status === 'succeeded' ? { status: 'succeeded', value: dialog } : outcome);
    },
  };
  return { ui, handlers, opened, closed: () => closed };
}

test('Excel: the dialog opens our sign-in page, resolves with the URL the page sends back, and is closed', async () => {
  const office = officeStandIn({ status: 'succeeded' });
  const attempt = officeDialogSignIn(office.ui).open('https://grc.example.com', 'https://login.example.com/authorize?a=1');
  expect(office.opened).toEqual([signInPageUrl('https://grc.example.com', 'https://login.example.com/authorize?a=1')]);
  expect(office.opened[0]).toMatch(/^https:\/\/grc\.example\.com\/sign-in\.html\?start=https%3A%2F%2Flogin/);
  office.handlers.get('dialogMessageReceived')!({ message: 'something else' });
  office.handlers.get('dialogMessageReceived')!({ message: JSON.stringify({ type: 'grc-sign-in', url: 'https://grc.example.com/sign-in.html?code=c&state=s' }) });
  await expect(attempt.result).resolves.toBe('https://grc.example.com/sign-in.html?code=c&state=s');
  expect(office.closed()).toBe(1);
});

test('Excel: a dialog closed by the person, or one Office will not open, is a message saying what to do', async () => {
  const closedByUser = officeStandIn({ status: 'succeeded' });
  const a = officeDialogSignIn(closedByUser.ui).open('https://grc.example.com', 'https://login.example.com/a');
  closedByUser.handlers.get('dialogEventReceived')!({ error: 12006 });
  await expect(a.result).rejects.toThrow('The sign-in window was closed before signing in finished.');

  const already = officeStandIn({ status: 'failed', error: { code: 12007, message: 'open' } });
  await expect(officeDialogSignIn(already.ui).open('https://grc.example.com', 'https://login.example.com/a').result).rejects.toThrow(/already open/);

  const cancelled = officeStandIn({ status: 'succeeded' });
  const c = officeDialogSignIn(cancelled.ui).open('https://grc.example.com', 'https://login.example.com/a');
  c.cancel();
  await expect(c.result).rejects.toThrow('Sign-in cancelled.');
  expect(cancelled.closed()).toBe(1);
});
