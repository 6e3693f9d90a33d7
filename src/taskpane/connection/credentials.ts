/**
 * Personal-key mode keeps the key's password in memory only, for as long as the pane is open: an add-in
 * cannot keep a secret at rest. Whatever it writes to localStorage, sessionStorage or IndexedDB (or an
 * encryption key kept beside it) is readable by any script of its origin and by anyone holding a copy of
 * the browser or webview profile. Earlier versions offered "Remember on this device", which kept the
 * identifier and password in localStorage as plain JSON; the option is gone, and what it left behind is
 * deleted when the pane starts (see docs/taskpane.md, Personal keys).
 */
export interface Credentials {
  identifier: string;
  password: string;
}

/** The key names the old option used, after Office's partition key when there was one. */
const LEGACY_KEY = 'grc-sheets.credentials.';

/** Deletes every password an earlier version remembered in this storage; returns how many. */
export function forgetRememberedPasswords(storage: Storage | undefined): number {
  if (!storage) return 0;
  const keys: string[] = [];
  try {
    for (let i = 0; i < storage.length; i++) {
      const k = storage.key(i);
      if (k?.includes(LEGACY_KEY)) keys.push(k);
    }
    for (const k of keys) storage.removeItem(k);
  } catch {
    // A host that refuses storage midway has nothing more we can delete.
  }
  return keys.length;
}
