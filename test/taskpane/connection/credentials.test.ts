import { forgetRememberedPasswords } from '../../../src/taskpane/connection/credentials';

/** localStorage's interface over a Map, so the test sees exactly which keys are left. */
function memoryStorage(): Storage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, v),
  };
}

test('passwords remembered by an earlier version are deleted, in every partition, and nothing else', () => {
  const storage = memoryStorage();
  storage.setItem('grc-sheets.credentials.ACC', '{"identifier":"id","password":"pw"}');
  storage.setItem('partition-42/grc-sheets.credentials.PRD', '{"identifier":"id","password":"pw"}');
  storage.setItem('other-setting', 'kept');
  expect(forgetRememberedPasswords(storage)).toBe(2);
  expect([...storage.map.keys()]).toEqual(['other-setting']);
  expect(forgetRememberedPasswords(storage)).toBe(0);
});

test('without storage (blocked by the host) there is nothing to delete and nothing fails', () => {
  expect(forgetRememberedPasswords(undefined)).toBe(0);
});
