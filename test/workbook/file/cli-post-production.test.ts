import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownBinding, type OwnBinding } from '../../../src/cli/own-binding';
import { run as post } from '../../../src/cli/post';
import { run as template } from '../../../src/cli/template';
import { JWKS_PATH, STATEMENTS_PATH } from '../../../src/contracts/evidence';
import { startRelay, type Relay } from '../../../src/relay';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { fillIncidents, incidentResults } from '../../support/incident-book';

/**
 * `grc-sheets post` straight to a service (no relay to say whether it is production): a service nothing
 * declares is refused before anything is sent; the sandbox on this machine says what it emulates; a test
 * environment is declared in the relay's configuration file. The service is a PRD sandbox bound to its own
 * Swagger file (so nothing is refused as an assumed path), reached either directly or through a relay used
 * as a plain reverse proxy on loopback, which is how a real service behind a tunnel looks: it does not say
 * what it is.
 */
describe('grc-sheets post: is the target production?', () => {
  let sandbox: Sandbox;
  let proxy: Relay;
  let own: OwnBinding;
  let dir: string;
  /** The service as the proxy shows it: a loopback URL where no sandbox answers /_sandbox/about. */
  let service: string;
  beforeAll(async () => {
    own = await ownBinding();
    sandbox = await startSandbox({ port: 0, environment: 'PRD', scale: 60, binding: own.binding });
    proxy = await startRelay({ listen: { host: '127.0.0.1', port: 0 }, environments: { tunnel: { baseUrl: sandbox.url, binding: own.file } }, logLevel: 'silent' }, {});
    service = `${proxy.url}/api/tunnel`;
    dir = mkdtempSync(join(tmpdir(), 'grc-cli-post-prd-'));
  });
  afterAll(async () => {
    await proxy.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The command's I/O with the sandbox's key, recording every request it makes and whether it carried a key. */
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    const requests: { url: string; key: boolean }[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      requests.push({ url: String(input instanceof Request ? input.url : input), key: headers.has('authorization') });
      return globalThis.fetch(input, init);
    };
    return {
      out,
      err,
      requests,
      io: { env: { GRC_SHEETS_KEY_ID: sandbox.demoKey!.identifier, GRC_SHEETS_KEY_PASSWORD: sandbox.demoKey!.password }, stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), fetch },
    };
  };
  const added = () => sandbox.store.addedRecords('incidents').length;

  async function filled(name: string, rows: string[], connect: string[]): Promise<{ book: string; table: string }> {
    const book = join(dir, `${name}.xlsx`);
    const cli = io();
    expect([await template(['--flow', 'incidents', ...connect, '--json', book], cli.io), cli.err]).toEqual([0, []]);
    const table = (JSON.parse(cli.out.join('\n')) as { table: string }).table;
    fillIncidents(book, table, rows.map((n) => [n, null]));
    return { book, table };
  }

  /** A relay configuration file declaring the service as environment TST; `production` left out when undefined. */
  function config(name: string, production: boolean | undefined): string {
    const file = join(dir, `${name}.relay.json`);
    writeFileSync(file, JSON.stringify({ environments: { TST: { baseUrl: service, binding: own.file, ...(production === undefined ? {} : { production }) } } }));
    return file;
  }

  it('refuses a direct post to a service nothing declares, naming the URL and both ways forward, before anything is sent; --dry-run needs nothing; --yes-production posts under production rules', async () => {
    const connect = ['--base-url', service, '--binding', own.file, '--env', 'PRD'];
    const { book, table } = await filled('undeclared', ['Undeclared one'], connect);
    const before = added();

    const refused = io();
    expect(await post([book, '--table', table, ...connect, '--yes'], refused.io)).toBe(1);
    const message = refused.err.join('\n');
    expect(message).toContain(`nothing says whether ${service} is a production environment`);
    expect(message).toMatch(/give --yes-production/);
    expect(message).toMatch(/"production": false under environments\.PRD in the relay's configuration file, then give --relay-config FILE --env PRD instead of --base-url\. Nothing was sent\.$/);
    // The one request: the sandbox's self-description at the proxy's origin, without the key. Nothing was
    // read from the service, nothing stored, nothing written into the file.
    expect(refused.requests).toEqual([{ url: `${proxy.url}/_sandbox/about`, key: false }]);
    expect(added()).toBe(before);
    expect(incidentResults(book)[0]!['Result']).toBeNull();

    const dry = io();
    expect([await post([book, '--table', table, ...connect, '--dry-run'], dry.io), dry.err]).toEqual([0, []]);
    expect(dry.out.join('\n')).toMatch(/1 row to send.*Nothing was sent/);
    expect(added()).toBe(before);

    // Said to be (or maybe be) production: the taskpane's production confirmation applies, then it posts.
    const unconfirmed = io();
    expect(await post([book, '--table', table, ...connect, '--yes-production'], unconfirmed.io)).toBe(1);
    expect(unconfirmed.err.join('\n')).toMatch(/PRD, a production environment.*Give --yes to post all the same\. Nothing was sent\./);
    expect(added()).toBe(before);
    const posted = io();
    expect([await post([book, '--table', table, ...connect, '--yes', '--yes-production'], posted.io), posted.err]).toEqual([0, []]);
    expect(posted.out.join('\n')).toMatch(/1 created, 0 done, 0 failed, 0 unknown/);
    expect(sandbox.store.addedRecords('incidents').slice(before).map((r) => (r as { Name?: string }).Name)).toEqual(['Undeclared one']);
    expect(incidentResults(book)[0]!['Result']).toBe('created');
  }, 90_000);

  it('the sandbox on this machine says it emulates PRD: a direct post to it needs --yes-production', async () => {
    const connect = ['--base-url', sandbox.url, '--binding', own.file, '--env', 'PRD'];
    const { book, table } = await filled('sandbox-prd', ['Sandbox PRD one'], connect);
    const before = added();
    const refused = io();
    expect(await post([book, '--table', table, ...connect, '--yes'], refused.io)).toBe(1);
    expect(refused.err.join('\n')).toMatch(/PRD is a production environment: give --yes-production to post there\. Nothing was sent\./);
    expect(added()).toBe(before);
    const posted = io();
    expect([await post([book, '--table', table, ...connect, '--yes', '--yes-production'], posted.io), posted.err]).toEqual([0, []]);
    expect(added()).toBe(before + 1);
  }, 90_000);

  it('a test environment declared "production": false in the relay configuration posts without --yes-production; a configuration that does not say is refused', async () => {
    const declared = config('declared', false);
    const { book, table } = await filled('declared', ['Declared one'], ['--relay-config', declared, '--env', 'TST']);
    const before = added();

    const wrongName = io();
    expect(await post([book, '--table', table, '--relay-config', declared, '--env', 'ACC'], wrongName.io)).toBe(2);
    expect(wrongName.err.join('\n')).toContain(`--relay-config: ${declared} has no environment "ACC"; it has TST`);

    const silent = config('silent', undefined);
    const refused = io();
    expect(await post([book, '--table', table, '--relay-config', silent, '--env', 'TST'], refused.io)).toBe(1);
    expect(refused.err.join('\n')).toContain(`${silent} does not say whether environment TST (${service}) is production. Set environments.TST.production to true or false there`);
    expect(refused.err.join('\n')).toMatch(/give --yes-production.*Nothing was sent\.$/);
    // Only the question whether a sandbox answers there (a configuration may name the sandbox on this machine).
    expect(refused.requests).toEqual([{ url: `${proxy.url}/_sandbox/about`, key: false }]);
    expect(added()).toBe(before);

    const cli = io();
    expect([await post([book, '--table', table, '--relay-config', declared, '--env', 'TST'], cli.io), cli.err]).toEqual([0, []]);
    expect(cli.out.join('\n')).toMatch(/1 created/);
    expect(added()).toBe(before + 1);
    // Every call went to the URL the configuration declares, none to the sandbox's own route; the declared URL
    // is a relay's here, so the receipts of the writes come from that relay's own routes (same origin).
    const relayEvidence = (url: string) => url.startsWith(`${proxy.url}${STATEMENTS_PATH}/`) || url === `${proxy.url}${JWKS_PATH}`;
    expect(cli.requests.filter((r) => !r.url.startsWith(service) && !relayEvidence(r.url))).toEqual([]);
    expect(cli.requests.filter((r) => relayEvidence(r.url)).length).toBeGreaterThan(0);

    const production = config('production', true);
    const { book: second, table: secondTable } = await filled('declared-production', ['Declared production one'], ['--relay-config', production, '--env', 'TST']);
    const asked = io();
    expect(await post([second, '--table', secondTable, '--relay-config', production, '--env', 'TST', '--yes'], asked.io)).toBe(1);
    expect(asked.err.join('\n')).toMatch(/TST is a production environment: give --yes-production/);
    expect(added()).toBe(before + 1);
  }, 90_000);
});
