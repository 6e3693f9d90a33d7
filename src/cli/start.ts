/**
 * `grc-sheets start` (what `npm start` runs after the build): a sandbox for ACC and one for PRD, the relay
 * in front of both serving the built add-in from dist/, all on one origin. HTTPS with the
 * office-addin-dev-certs certificate when it exists (Excel needs HTTPS to sideload), plain HTTP on
 * localhost otherwise (enough for the preview in a browser). Ctrl-C stops everything.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startRelay, type Relay } from '../relay';
import { BindingFileError, loadBinding } from '../binding/load';
import type { Binding } from '../catalog';
import { startSandbox } from '../sandbox';
import { startSignInDemo, type SignInDemo } from './start-sign-in';
import { EXIT, EXIT_CODES_HELP, portInUseMessage, unreadableOptionFile } from './exit';
import { parseOptions, untilStopped } from './options';
import { ownBinding } from './own-binding';

const HELP = `Usage: grc-sheets start [options]

Starts an ACC sandbox, a PRD sandbox and the relay serving the add-in (dist/) in front of both.

Options:
  --port N          the relay's port (default 3000, the port manifest.xml names)
  --host H          the relay's host (default localhost)
  --sandbox-port N  first sandbox port; the PRD sandbox takes N+1 (default: any free port)
  --scale N         records per large dataset in the sandboxes (default: the sandbox's default)
  --seed S          seed of the generated data (default: the sandbox's default)
  --dist DIR        the built add-in (default dist)
  --certs DIR       office-addin-dev-certs folder (default ~/.office-addin-dev-certs)
  --http            plain HTTP even when certificates exist
  --binding FILE    a binding (grc-sheets binding import, docs/binding.md) for both sandboxes and the relay;
                    without any binding option, both are bound to the sandbox's own Swagger file, imported at start
  --binding-acc FILE, --binding-prd FILE
                    a binding for one environment only (ACC may have a newer Swagger file than PRD); the other
                    stays unbound
  --unbound         no binding at all: the catalogue's own paths, assumed ones marked as such (how a real
                    environment looks before its Swagger file is imported)
  --sign-in         people sign in (a demo OpenID provider on this computer, two demo users in two
                    groups, a demo policy); the relay holds the sandboxes' keys and takes no typed key
  --help            this text

${EXIT_CODES_HELP}`;

interface Options {
  port: number;
  host: string;
  sandboxPort: number;
  scale?: number;
  seed?: number;
  dist: string;
  certs: string;
  http: boolean;
  bindingAcc?: string;
  bindingPrd?: string;
  unbound: boolean;
  signIn: boolean;
}

function integer(name: string, raw: string | undefined, fallback: number | undefined): number | undefined {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got "${raw}"`);
  return n;
}

function parse(argv: string[]): Options | { help: true } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'sandbox-port': { type: 'string' },
      scale: { type: 'string' },
      seed: { type: 'string' },
      dist: { type: 'string' },
      certs: { type: 'string' },
      http: { type: 'boolean' },
      binding: { type: 'string' },
      'binding-acc': { type: 'string' },
      'binding-prd': { type: 'string' },
      unbound: { type: 'boolean' },
      'sign-in': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true };
  return {
    port: integer('port', values.port, 3000)!,
    host: values.host ?? 'localhost',
    sandboxPort: integer('sandbox-port', values['sandbox-port'], 0)!,
    scale: integer('scale', values.scale, undefined),
    seed: integer('seed', values.seed, undefined),
    dist: resolve(values.dist ?? 'dist'),
    certs: values.certs ?? join(homedir(), '.office-addin-dev-certs'),
    http: values.http ?? false,
    bindingAcc: values['binding-acc'] ?? values.binding,
    bindingPrd: values['binding-prd'] ?? values.binding,
    unbound: values.unbound ?? false,
    signIn: values['sign-in'] ?? false,
  };
}

/** The certificate office-addin-dev-certs writes (`npx office-addin-dev-certs install`), when present. */
function devCertificate(dir: string): { cert: string; key: string } | undefined {
  const cert = join(dir, 'localhost.crt');
  const key = join(dir, 'localhost.key');
  return existsSync(cert) && existsSync(key) ? { cert, key } : undefined;
}

function banner(
  relay: Relay,
  keys: { name: string; identifier: string; password: string }[],
  https: boolean,
  manifest: string,
  signIn: SignInDemo | null,
): string {
  const preview = `${relay.url}/taskpane.html`;
  const lines = [
    '',
    signIn ? 'grc-sheets is running, with sign-in.' : 'grc-sheets is running.',
    '',
    `  Preview in a browser:  ${preview}`,
    `  Relay environments:    ${relay.url}/api/environments`,
    '',
    // With sign-in the keys stay with the relay: printing them would undo the point.
    ...(signIn
      ? signIn.bannerLines()
      : [
          '  Demo API keys (sandbox):',
          ...keys.map((k) => `    ${k.name.padEnd(12)} identifier ${k.identifier}   password ${k.password}`),
          '    New at each start. grc-sheets template/post/refresh take one from GRC_SHEETS_KEY_ID and',
          `    GRC_SHEETS_KEY_PASSWORD, with --relay ${relay.url} --env ${keys[0]?.name ?? 'NAME'} (README.md).`,
        ]),
    '',
  ];
  if (signIn && https)
    lines.push(
      '  The demo provider speaks plain HTTP on this computer: the preview signs in with it; Excel\'s sign-in',
      '  dialog needs HTTPS on every page, so in Excel use your organisation\'s provider (docs/relay.md).',
      '',
    );
  if (https) {
    lines.push(
      '  Sideload into Excel:',
      `    Excel on the web: open a workbook, Home > Add-ins > More add-ins > Upload My Add-in, choose ${manifest}`,
      `    Excel desktop:    npx office-addin-debugging start ${manifest} desktop`,
      '                      (or share a folder holding manifest.xml and add it as a trusted add-in catalog)',
    );
  } else {
    lines.push(
      '  Excel needs HTTPS to load the add-in. For sideloading run once:',
      '    npx office-addin-dev-certs install',
      '  then npm start again (it uses ~/.office-addin-dev-certs when it exists).',
    );
  }
  lines.push('', 'Ctrl-C stops everything.', '');
  return lines.join('\n');
}

/** A port in use, said in words (exit 1); any other error goes on to the generic handler. */
function failedToStart(e: unknown, hint: string): number {
  const inUse = portInUseMessage(e, hint);
  if (!inUse) throw e;
  console.error(`grc-sheets start: ${inUse}`);
  return EXIT.failed;
}

export async function run(argv: string[]): Promise<number> {
  const options = parseOptions('start', HELP, () => parse(argv));
  if (typeof options === 'number') return options;
  if (!existsSync(join(options.dist, 'taskpane.html'))) {
    console.error(
      `grc-sheets start: ${options.dist}/taskpane.html is missing. Build the add-in first: npm run build (npm start does both).`,
    );
    return EXIT.failed;
  }
  const tls = options.http ? undefined : devCertificate(options.certs);
  const common = { host: '127.0.0.1', scale: options.scale, seed: options.seed };
  const what = 'a binding file (grc-sheets binding import)';
  const unreadable = unreadableOptionFile('start', [
    [options.bindingAcc === options.bindingPrd ? '--binding' : '--binding-acc', options.bindingAcc, what],
    ['--binding-prd', options.bindingPrd, what],
  ]);
  if (unreadable) {
    console.error(unreadable);
    return EXIT.usage;
  }
  let bindingAcc: Binding | undefined;
  let bindingPrd: Binding | undefined;
  try {
    bindingAcc = options.bindingAcc ? loadBinding(options.bindingAcc) : undefined;
    bindingPrd = options.bindingPrd ? loadBinding(options.bindingPrd) : undefined;
  } catch (e) {
    if (!(e instanceof BindingFileError)) throw e;
    console.error(`grc-sheets start: --binding ${e.message}`);
    return EXIT.usage;
  }
  // Without any binding option both environments are bound to the sandbox's own Swagger file, so the demo
  // shows a fully bound environment (src/cli/own-binding.ts). With one for ACC only, PRD stays unbound: the
  // user is shaping the sandboxes like their own environments.
  const own = options.unbound || options.bindingAcc || options.bindingPrd ? undefined : await ownBinding();
  const bindingFileAcc = options.bindingAcc ?? own?.file;
  const bindingFilePrd = options.bindingPrd ?? own?.file;
  if (own) bindingAcc = bindingPrd = own.binding;
  const sandboxHint =
    'Choose other sandbox ports with npm start -- --sandbox-port N (the PRD sandbox takes N+1), or leave --sandbox-port out for any free port.';
  let acc, prd;
  try {
    acc = await startSandbox({
      ...common,
      port: options.sandboxPort,
      environment: 'ACC',
      binding: bindingAcc,
    });
  } catch (e) {
    return failedToStart(e, sandboxHint);
  }
  try {
    prd = await startSandbox({
      ...common,
      port: options.sandboxPort && options.sandboxPort + 1,
      environment: 'PRD',
      binding: bindingPrd,
    });
  } catch (e) {
    await acc.close();
    return failedToStart(e, sandboxHint);
  }
  let signIn: SignInDemo | null = null;
  if (options.signIn) {
    try {
      signIn = await startSignInDemo({ 'sandbox-acc': acc.demoKey, 'sandbox-prd': prd.demoKey });
    } catch (e) {
      await Promise.all([acc.close(), prd.close()]);
      throw e;
    }
  }
  const held = (name: string) => (signIn ? { key: signIn.keyFile(name) } : {});
  let relay: Relay;
  try {
    relay = await startRelay({
      listen: { host: options.host, port: options.port },
      tls,
      environments: {
        'sandbox-acc': { baseUrl: acc.url, production: false, binding: bindingFileAcc, ...held('sandbox-acc') },
        'sandbox-prd': { baseUrl: prd.url, production: true, binding: bindingFilePrd, ...held('sandbox-prd') },
      },
      ...(signIn?.relayConfig ?? {}),
      staticDir: options.dist,
      logLevel: 'warn',
    });
  } catch (e) {
    await Promise.all([acc.close(), prd.close(), signIn?.close()]);
    return failedToStart(
      e,
      `Choose another port for the add-in and relay: npm start -- --port N (or grc-sheets start --port N). Excel's sideloaded manifest names port 3000, so use another port for the browser preview only.`,
    );
  }
  try {
    await signIn?.allowOrigin(relay.url);
  } catch (e) {
    await Promise.all([relay.close(), acc.close(), prd.close(), signIn?.close()]);
    throw e;
  }
  const keys = [
    { name: 'sandbox-acc', key: acc.demoKey },
    { name: 'sandbox-prd', key: prd.demoKey },
  ].flatMap(({ name, key }) => (key ? [{ name, identifier: key.identifier, password: key.password }] : []));
  const stopped = untilStopped(); // before the banner: whoever waits for it may stop everything at once
  console.log(banner(relay, keys, !!tls, join(options.dist, 'manifest.xml'), signIn));
  await stopped;
  await relay.close();
  await Promise.all([acc.close(), prd.close(), signIn?.close()]);
  return EXIT.ok;
}
