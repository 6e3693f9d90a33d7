import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { importBinding } from '../../src/binding';
import type { Binding } from '../../src/catalog';
import { EnvironmentError, openEnvironment } from '../../src/connect/open';
import { withProduction } from '../../src/environment/environment';
import { startRelay, type Relay } from '../../src/relay';
import { relayViews } from '../relay/helpers';

/**
 * One bound environment, whichever way a command reaches it: through the relay (its GET /api/environments),
 * the relay's configuration file, or a base URL with the binding file. Each gives the write-back a view that
 * carries the binding, and a catalogue at the binding's paths; all three describe every call the same way
 * the relay does, so a template or post cannot go to the catalogue's paths while the client uses the file's.
 */
const CUSTOMER = join(__dirname, '..', 'binding', 'corpus', 'northwind.swagger.yaml');

let dir: string;
let binding: Binding;
let bindingFile: string;
let relay: Relay;
const SERVICE = 'http://127.0.0.1:9/api';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grc-open-'));
  binding = (await importBinding(CUSTOMER, { accept: true })).binding;
  bindingFile = join(dir, 'binding.json');
  writeFileSync(bindingFile, JSON.stringify(binding));
  relay = await startRelay({
    listen: { host: '127.0.0.1', port: 0 },
    environments: { acc: { baseUrl: SERVICE, binding: bindingFile, production: false } },
    logLevel: 'silent',
  });
});

afterAll(async () => {
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

const relayView = async () => (await relayViews(relay.url))[0]!;

it('through the relay, from its configuration, or from a base URL and the binding file: the same bound view as the relay serves', async () => {
  const config = join(dir, 'relay.json');
  writeFileSync(config, JSON.stringify({ environments: { acc: { baseUrl: SERVICE, binding: bindingFile, production: false } } }));
  const viaRelay = await openEnvironment({ via: 'relay', relay: relay.url, name: 'acc' }, fetch);
  const viaConfig = await openEnvironment({ via: 'relay-config', file: config, name: 'acc', env: {} }, fetch);
  const direct = await openEnvironment({ via: 'direct', baseUrl: `${SERVICE}/`, name: 'acc', binding: bindingFile }, fetch);

  const served = await relayView();
  // The relay serves the binding with its API file's base name only: the server's paths stay there.
  expect(served.binding).toEqual({ ...binding, source: { ...binding.source, file: basename(binding.source.file) } });
  expect(viaRelay.environment.binding).toEqual(served.binding);
  for (const opened of [viaRelay, viaConfig, direct]) {
    if (opened !== viaRelay) expect(opened.environment.binding).toEqual(binding);
    // What write-back is given: the binding, and every call where the relay forwards it.
    expect(opened.environment.view.binding).toEqual(opened.environment.binding);
    expect(opened.environment.view.endpoints).toEqual(served.endpoints);
    // The client's catalogue: the customer's path and method, not the catalogue's assumption.
    const create = opened.environment.catalog.operation('incident-create');
    expect([create.method, create.path]).toEqual([binding.endpoints['incident-create']!.method, binding.endpoints['incident-create']!.path]);
  }
  expect([viaRelay.baseUrl, viaRelay.via, viaRelay.environment.production]).toEqual([`${relay.url}/api/acc`, 'relay', false]);
  expect([viaConfig.baseUrl, viaConfig.via, viaConfig.environment.production]).toEqual([SERVICE, 'direct', false]);
  // Nothing declares a base URL's production flag: null, which a post does not take as false.
  expect([direct.baseUrl, direct.via, direct.environment.production, direct.environment.view.production]).toEqual([SERVICE, 'direct', null, false]);
});

it('a post that settles production keeps the binding: production rules on the bound paths', async () => {
  const direct = await openEnvironment({ via: 'direct', baseUrl: SERVICE, name: 'acc', binding: bindingFile }, fetch);
  const production = withProduction(direct.environment, true);
  expect(production.view.binding).toEqual(binding);
  expect(production.view.production).toBe(true);
  expect(production.catalog).toBe(direct.environment.catalog);
  expect(production.view.endpoints['incident-create']!.path).toBe(binding.endpoints['incident-create']!.path);
});

it('a relay without the environment, or something else at the URL, is said in words', async () => {
  await expect(openEnvironment({ via: 'relay', relay: relay.url, name: 'prd' }, fetch)).rejects.toThrow(new EnvironmentError('the relay has no environment "prd"; it has acc'));
  const notRelay: typeof fetch = async () => new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } });
  await expect(openEnvironment({ via: 'relay', relay: 'https://example.invalid', name: 'acc' }, notRelay)).rejects.toThrow(/is not the answer of a grc-sheets relay of this version/);
});
