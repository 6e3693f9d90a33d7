import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run as refresh } from '../../src/cli/refresh';
import { run as template } from '../../src/cli/template';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { openpyxl } from '../support/outside-readers';
import { cliIo } from '../support/sandbox';

/**
 * What a new user meets with the README's workbook commands: the demo's environment names, a wrong name
 * (a wrong option: exit 2), no key (the right command named), and a refresh of a file openpyxl rewrote.
 */
describe('workbook commands as the README gives them', () => {
  let sandbox: Sandbox;
  let relay: Relay;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 40 });
    // Named as npm start names its environments.
    relay = await startRelay({ listen: { host: '127.0.0.1', port: 0 }, environments: { 'sandbox-acc': { baseUrl: sandbox.url } }, logLevel: 'silent' });
    dir = mkdtempSync(join(tmpdir(), 'grc-cli-details-'));
  });
  afterAll(async () => {
    await relay.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('template with the README example works; another environment name is a wrong option (exit 2) naming the relay\'s', async () => {
    const ok = cliIo(sandbox);
    expect([await template(['--flow', 'incidents', '--relay', relay.url, '--env', 'sandbox-acc', join(dir, 'book.xlsx')], ok.io), ok.err]).toEqual([0, []]);
    const wrong = cliIo(sandbox);
    expect(await template(['--flow', 'incidents', '--relay', relay.url, '--env', 'ACC', join(dir, 'other.xlsx')], wrong.io)).toBe(2);
    expect(wrong.err.join('\n')).toMatch(/^grc-sheets template: the relay has no environment "ACC"; it has sandbox-acc\n\nUsage: grc-sheets template/);
    const cased = cliIo(sandbox);
    expect(await template(['--flow', 'incidents', '--relay', relay.url, '--env', 'Sandbox-ACC', join(dir, 'other.xlsx')], cased.io)).toBe(2);
    expect(cased.err.join('\n')).toContain('it has sandbox-acc (names are matched as written: --env sandbox-acc)');
  }, 60_000);

  it('without a key, says which variables to set and that this command asks in a terminal', async () => {
    const cli = cliIo(sandbox, {});
    expect(await template(['--flow', 'incidents', '--base-url', sandbox.url, '--env', 'ACC', join(dir, 'nokey.xlsx')], cli.io)).toBe(2);
    const err = cli.err.join('\n');
    expect(err).toContain('grc-sheets template: no API key: set GRC_SHEETS_KEY_ID and GRC_SHEETS_KEY_PASSWORD, or run this command in a terminal to be asked for them.');
    expect(err).not.toMatch(/check/);
  });

  it('refresh of a workbook openpyxl rewrote gives the reason verify gives, not just "nothing to refresh"', async () => {
    const book = join(dir, 'rewritten.xlsx');
    copyFileSync(join(__dirname, '..', 'workbook', 'file', 'fixtures', 'pivot-chart.xlsx'), book);
    openpyxl(book, "wb = load_workbook(sys.argv[1])\nwb.save(sys.argv[1])\nprint('null')");
    const cli = cliIo(sandbox);
    expect(await refresh([book, '--base-url', sandbox.url, '--env', 'ACC'], cli.io)).toBe(1);
    expect(cli.err.join('\n')).toBe(
      "grc-sheets refresh: Table tbl_risk looks loaded by grc-sheets, but the workbook holds none of the add-in's records (its settings part is gone: the file was rewritten by a tool that drops it, such as openpyxl), so there is nothing to refresh. Load the dataset again in the add-in, or refresh a copy saved by Excel before that tool saved it.",
    );
  }, 60_000);
});
