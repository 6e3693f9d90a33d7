/** The demo provider's login form: a plain page (no script) the Playwright tests and people fill in. */

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function loginPage(uid: string, clientId: string, error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in: grc-sheets demo provider</title>
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:3rem auto}label,input,button{display:block;width:100%;margin:.4rem 0}p.error{color:#a4262c}</style>
</head><body>
<h1>Sign in</h1>
<p>Demo provider on this computer, for <code>${escape(clientId)}</code>.</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">
<label for="login">User name</label><input id="login" name="login" autocomplete="username" autofocus required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</body></html>`;
}
