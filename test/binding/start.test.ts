/**
 * `grc-sheets start --binding-acc FILE`: the ACC sandbox and the relay are shaped by the binding, PRD keeps the
 * catalogue's own (assumed) paths; a bad binding file stops the start with a message naming it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bindPaths } from '../catalog/bind-paths';
import { startCli, stopCli } from '../support/start-cli';
import { relayViews } from '../relay/helpers';

const ROOT = join(__dirname, '..', '..');

/** A stand-in for the built add-in: start only needs taskpane.html to exist. */
function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'grc-dist-'));
  writeFileSync(join(dir, 'taskpane.html'), '<!doctype html><title>grc-sheets</title>');
  return dir;
}

test('start shapes the ACC sandbox and relay by --binding-acc and leaves PRD on the catalogue', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'grc-binding-')), 'binding.json');
  writeFileSync(file, JSON.stringify(bindPaths({ 'incident-create': '/incidentdata/v1/incidents' })));
  const { child, banner } = await startCli([
    '--host',
    '127.0.0.1',
    '--http',
    '--scale',
    '5',
    '--dist',
    fakeDist(),
    '--binding-acc',
    file,
  ]);
  try {
    const origin = /Relay environments: +(http:\/\/\S+)\/api\/environments/.exec(banner)![1]!;
    const [acc, prd] = await relayViews(origin);
    expect(acc!.endpoints['incident-create']).toMatchObject({
      pathSource: 'bound',
      path: '/incidentdata/v1/incidents',
    });
    expect(prd!.binding).toBeNull();
    expect(prd!.endpoints['incident-create']).toMatchObject({
      pathSource: 'assumed',
      write: { kind: 'unavailable' },
    });
  } finally {
    expect(await stopCli(child)).toBe(0);
  }
});

test('start refuses a binding file that is not one, naming the option and the file', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'grc-binding-')), 'binding.json');
  writeFileSync(file, '{"format": "other"}');
  const r = spawnSync(
    process.execPath,
    ['bin/grc-sheets.js', 'start', '--dist', fakeDist(), '--binding', file],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  expect(r.status).toBe(2);
  expect(r.stderr).toContain(`--binding ${file}: not a grc-sheets binding file`);
});
