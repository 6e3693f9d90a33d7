import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { closedPort } from './fake-server';
import { failureOf } from '../support/api-error';
import { demoClient } from '../support/sandbox';

/** The client as the taskpane uses it: through the relay (`/api/<env>/...`) to the sandbox. */
describe('client through the relay', () => {
  let sb: Sandbox;
  let relay: Relay;
  const quiet = { write: () => undefined };

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, scale: 500, seed: 3 });
    const down = await closedPort();
    relay = await startRelay(
      {
        listen: { host: '127.0.0.1', port: 0 },
        environments: { acc: { baseUrl: sb.url }, gone: { baseUrl: `http://127.0.0.1:${down}/api` } },
      },
      { logDestination: quiet },
    );
  });
  afterAll(async () => {
    await relay.close();
    await sb.close();
  });

  const client = (env: string) => demoClient(sb, { baseUrl: `${relay.url}/api/${env}` });

  it('downloads a dataset and posts an incident through the relay', async () => {
    expect((await client('acc').download('risk')).count).toBe(500);
    const created = (await client('acc').call('incident-create', {
      body: { Name: 'Via the relay', ReportingOrganization: 'Finance' },
    })) as { Id: string };
    const { records } = await client('acc').download('incidents');
    expect(records.some((r) => r.Id === created.Id)).toBe(true);
  });

  it('the service errors pass through the relay unchanged (401 → invalid-credentials)', async () => {
    const wrong = demoClient(sb, { baseUrl: `${relay.url}/api/acc`, password: 'wrong' });
    expect(await failureOf(wrong.testConnection())).toMatchObject({
      code: 'invalid-credentials',
      status: 401,
    });
  });

  it('an environment whose service is down → unreachable, sent no (safe to retry a write)', async () => {
    const e = await failureOf(
      client('gone').call('incident-create', { body: { Name: 'x', ReportingOrganization: 'Finance' } }),
    );
    expect(e).toMatchObject({ code: 'unreachable', sent: 'no', status: 502 });
  });

  it('an environment the relay does not know → relay, sent no', async () => {
    expect(await failureOf(client('nope').download('risk'))).toMatchObject({
      code: 'relay',
      sent: 'no',
      status: 404,
    });
  });
});
