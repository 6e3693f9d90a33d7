/**
 * The watch the door tests fail a blanking full update with (blanking.ts), behind the recording proxy: a
 * stand-in service on loopback that empties a task's description on PUT, and keeps it on POST.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { watchBlanking } from './blanking';
import { startRecordingProxy } from './recording-proxy';

type Json = Record<string, unknown>;
const ID = 'd72e5bcb-0009-4921-8e83-000000000010';

test('a write that empties a task field that had a value is recorded, with the field and its value before', async () => {
  const tasks = new Map<string, Json>([[ID, { Id: ID, Name: 'Collect evidence', Description: 'Generated task.', NotificationPeriods: ['NP-1W'], Score: null }]]);
  const service = createServer((req, res) => {
    const t = tasks.get(ID)!;
    // The store changes before the answer, as the sandbox's does.
    tasks.set(ID, req.method === 'PUT' ? { ...t, Description: null, NotificationPeriods: [], Score: null } : { ...t, Comment: 'kept' });
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const watch = watchBlanking({ find: (list: string, id: string) => (list === 'tasks' ? tasks.get(id) : undefined) } as never);
  const proxy = await startRecordingProxy(`http://127.0.0.1:${(service.address() as AddressInfo).port}`, { around: watch.around });
  try {
    await fetch(`${proxy.url}/api/v2/tasks/${ID}:advance`, { method: 'POST' });
    await fetch(`${proxy.url}/api/tasks/${ID}`);
    expect(watch.blanked).toEqual([]);
    await fetch(`${proxy.url}/api/v2/tasks/${ID}`, { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(watch.blanked).toEqual([
      `PUT /api/v2/tasks/${ID}: Description was "Generated task.", is now null`,
      `PUT /api/v2/tasks/${ID}: NotificationPeriods was ["NP-1W"], is now []`,
    ]);
  } finally {
    await proxy.close();
    await new Promise((resolve) => service.close(resolve));
  }
});
