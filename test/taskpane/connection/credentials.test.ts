import { createCredentialStore } from '../../../src/taskpane/connection/credentials';

/** localStorage's interface over a Map, so the test sees exactly which keys are written. */
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

test('remembered credentials are stored under the Office partition key and read back per environment', () => {
  const storage = memoryStorage();
  const store = createCredentialStore(storage, 'partition-42/');
  store.save('ACC', { identifier: 'id-1', password: 'pw-1' });
  expect([...storage.map.keys()]).toEqual(['partition-42/grc-sheets.credentials.ACC']);
  expect(store.load('ACC')).toEqual({ identifier: 'id-1', password: 'pw-1' });
  expect(store.load('PRD')).toBeNull();
});

test('two partitions do not see each other’s credentials', () => {
  const storage = memoryStorage();
  createCredentialStore(storage, 'a/').save('ACC', { identifier: 'id', password: 'pw' });
  expect(createCredentialStore(storage, 'b/').load('ACC')).toBeNull();
  expect(createCredentialStore(storage, undefined).load('ACC')).toBeNull();
});

test('forget removes the stored password', () => {
  const storage = memoryStorage();
  const store = createCredentialStore(storage);
  store.save('ACC', { identifier: 'id', password: 'pw' });
  store.forget('ACC');
  expect(storage.map.size).toBe(0);
  expect(store.load('ACC')).toBeNull();
});

test('a damaged entry reads as nothing remembered, not as a crash', () => {
  const storage = memoryStorage();
  storage.setItem('grc-sheets.credentials.ACC', '{not json');
  storage.setItem('grc-sheets.credentials.PRD', '{"identifier":1}');
  const store = createCredentialStore(storage);
  expect(store.load('ACC')).toBeNull();
  expect(store.load('PRD')).toBeNull();
});

test('without storage (blocked by the host) nothing is remembered and nothing fails', () => {
  const store = createCredentialStore(undefined);
  expect(store.available).toBe(false);
  store.save('ACC', { identifier: 'id', password: 'pw' });
  expect(store.load('ACC')).toBeNull();
});
