import { mkdtempSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { importBinding } from '../../src/binding';
import { createCatalog } from '../../src/catalog';
import { createClient } from '../../src/client';
import { environmentList } from '../../src/contracts/environments';
import { startRelay } from '../../src/relay';
import { startSandbox } from '../../src/sandbox';
import { checkNothingDropped } from '../writeback/nothing-dropped';

const dir = join(__dirname, '..', 'binding', 'corpus');
const files = readdirSync(dir).filter((f) => /\.(json|yaml)$/.test(f) && !f.startsWith('README'));

test.each(files)('%s', async (file) => {
  const { binding } = await importBinding(join(dir, file), { accept: true });
  const bindingFile = join(mkdtempSync(join(tmpdir(), 'h-')), 'binding.json');
  writeFileSync(bindingFile, JSON.stringify(binding));
  const sandbox = await startSandbox({ scale: 40, seed: 11, binding, apiFile: join(dir, file) });
  const relay = await startRelay({ listen: { host: '127.0.0.1', port: 0 }, environments: { acc: { baseUrl: sandbox.url, binding: bindingFile } }, logLevel: 'silent' });
  try {
    const [acc] = environmentList.parse(await (await request(`${relay.url}/api/environments`)).body.json());
    const client = createClient({ baseUrl: `${relay.url}/api/acc`, credentials: sandbox.demoKey!, catalog: createCatalog(acc!.binding ?? undefined) });
    const report = await checkNothingDropped({ environment: acc!, api: client });
    console.log(file, JSON.stringify(report.flows.map((f) => [f.flow, f.available, f.cellsChecked])), '\n' + report.failures.join('\n'));
  } finally {
    await relay.close();
    await sandbox.close();
  }
});
