import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { exportSwagger } from '../binding/export';
import {
  KeysError,
  readKeysJson,
  startSandbox,
  ENVIRONMENTS,
  type Environment,
  type KeySpec,
} from '../sandbox';
import { BindingFileError, loadBinding } from '../binding/load';
import { ApiFileError } from '../sandbox';
import { MAX_SCALE, MIN_SCALE } from '../sandbox/data/sizes';
import { EXIT, EXIT_CODES_HELP, portInUseMessage, unreadableOptionFile } from './exit';
import { parseOptions, untilStopped } from './options';

const HELP = `Usage: grc-sheets sandbox [options]

Runs a local emulator of the Risk and Controls Management Service integration API.
Base URL: http://HOST:PORT/api (catalogue paths below it, e.g. /api/directdata/v3/risk).

Options:
  --host HOST            address to listen on (default 127.0.0.1)
  --port PORT            port to listen on (default 4010; 0 picks a free one)
  --environment ACC|PRD  which environment this sandbox is (default ACC); keys of the other are refused
  --scale N              number of risks, ${MIN_SCALE} to ${MAX_SCALE} (default 1000); other datasets are proportional
  --seed S               seed of the generated data (default 1); same seed, same data
  --keys FILE            JSON array of API keys (see docs/sandbox.md); without it a demo key is made
  --binding FILE         a binding (grc-sheets binding import, docs/binding.md): answer at its paths, with its
                         property names, and refuse bodies missing a property it requires, as that service would
  --api-file FILE        the customer's Swagger/OpenAPI file the binding was made from (default: the binding's
                         source file, when unchanged): bodies checked against its schemas, answers in its shape
  --latency MS           fault: added latency per API call
  --error-rate R         fault: share of API calls answered 503 with Retry-After, before any work (0..1)
  --rate-limit-rate R    fault: share of API calls answered 429 with Retry-After (0..1)
  --drop-rate R          fault: share of API calls whose connection drops mid-body, after a write is committed (0..1)
  --retry-after S        fault: Retry-After seconds on 503 and 429 (default 1)
  --fault-seed N         fault: seed of the fault sequence (default 1)
  --export-swagger [F]   write the catalogue's own assumptions as a Swagger 2.0 file (to F, or stdout) and exit
  -h, --help             this help

Admin routes (loopback callers only): GET /_sandbox/keys, GET /_sandbox/requested-ips,
POST /_sandbox/requested-ips/approve {"identifier","ip"}, POST /_sandbox/keys/ID/revoke,
GET|PUT /_sandbox/faults, GET /_sandbox/counts, GET /_sandbox/incidents/GUID,
POST /_sandbox/incidenttypes/GUID/archive, POST /_sandbox/forms/GUID/close,
DELETE /_sandbox/customfields/GUID/options/OPTION-GUID, POST /_sandbox/customfields/DEFINITIONS
{"Name","Type"}, DELETE /_sandbox/customfields/GUID. See docs/sandbox.md.

${EXIT_CODES_HELP}`;

/** `--export-swagger [file]`: the file name is optional, which parseArgs cannot say, so it is read here. */
function exportSwaggerTo(argv: string[], at: number): number {
  const next = argv[at + 1];
  const file = next && !next.startsWith('-') ? next : undefined;
  const others = argv.filter((_, i) => i !== at && !(file && i === at + 1));
  if (others.length) {
    console.error(
      `grc-sheets sandbox: --export-swagger takes no other options, got ${others.join(' ')}\n\n${HELP}`,
    );
    return 2;
  }
  const text = JSON.stringify(exportSwagger(), null, 2) + '\n';
  if (file) {
    writeFileSync(file, text);
    console.error(`Swagger 2.0 file of the catalogue written to ${file}`);
  } else process.stdout.write(text);
  return 0;
}

function number(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`--${name} takes a number, got "${value}"`);
  return n;
}

export async function run(argv: string[]): Promise<number> {
  const exportAt = argv.indexOf('--export-swagger');
  if (exportAt >= 0) return exportSwaggerTo(argv, exportAt);
  const values = parseOptions(
    'sandbox',
    HELP,
    () =>
      parseArgs({
        args: argv,
        options: {
          host: { type: 'string', default: '127.0.0.1' },
          port: { type: 'string', default: '4010' },
          environment: { type: 'string', default: 'ACC' },
          scale: { type: 'string', default: '1000' },
          seed: { type: 'string', default: '1' },
          keys: { type: 'string' },
          binding: { type: 'string' },
          'api-file': { type: 'string' },
          latency: { type: 'string' },
          'error-rate': { type: 'string' },
          'rate-limit-rate': { type: 'string' },
          'drop-rate': { type: 'string' },
          'retry-after': { type: 'string' },
          'fault-seed': { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
        strict: true,
      }).values,
  );
  if (typeof values === 'number') return values;
  const environment = values.environment.toUpperCase();
  if (!(ENVIRONMENTS as readonly string[]).includes(environment)) {
    console.error(`grc-sheets sandbox: --environment must be ACC or PRD, got "${values.environment}"`);
    return 2;
  }
  const unreadable = unreadableOptionFile('sandbox', [
    ['--keys', values.keys, 'a keys file (docs/sandbox.md)'],
    ['--binding', values.binding, 'a binding file (grc-sheets binding import)'],
  ]);
  if (unreadable) {
    console.error(unreadable);
    return EXIT.usage;
  }
  try {
    const sandbox = await startSandbox({
      host: values.host,
      port: number('port', values.port),
      environment: environment as Environment,
      scale: number('scale', values.scale),
      seed: values.seed,
      keys: values.keys ? (readKeysJson(values.keys) as KeySpec[]) : undefined,
      binding: values.binding ? loadBinding(values.binding) : undefined,
      apiFile: values['api-file'],
      faults: {
        latencyMs: number('latency', values.latency),
        errorRate: number('error-rate', values['error-rate']),
        rateLimitRate: number('rate-limit-rate', values['rate-limit-rate']),
        dropRate: number('drop-rate', values['drop-rate']),
        retryAfterSeconds: number('retry-after', values['retry-after']),
        seed: number('fault-seed', values['fault-seed']),
      },
    });
    // Listening for Ctrl-C before saying so: whoever waits for these lines may stop the sandbox at once.
    const stopped = untilStopped();
    console.log(`Sandbox (${environment}) listening. Base URL: ${sandbox.url}`);
    if (values.binding) console.log(`Shaped by the binding ${values.binding}.`);
    if (sandbox.apiFile) console.log(`Bodies checked against ${sandbox.apiFile}.`);
    if (sandbox.demoKey) {
      const { identifier, password } = sandbox.demoKey;
      console.log(
        `Demo key (Application Administrator, all APIs, allowed from 127.0.0.1 and ::1); shown once:`,
      );
      console.log(`  identifier: ${identifier}`);
      console.log(`  password:   ${password}`);
      console.log(
        `Try: curl -s -u ${identifier}:${password} ${sandbox.url}/directdata/v3/risk | head -c 300`,
      );
    }
    await stopped;
    await sandbox.close();
    return EXIT.ok;
  } catch (e) {
    const inUse = portInUseMessage(e, 'Choose another with --port N (0 picks any free port).');
    if (inUse) {
      console.error(`grc-sheets sandbox: ${inUse}`);
      return EXIT.failed;
    }
    const where =
      e instanceof KeysError && values.keys && !(e as Error).message.includes(values.keys)
        ? `--keys ${values.keys}: `
        : e instanceof BindingFileError
          ? '--binding '
          : e instanceof ApiFileError
            ? '--api-file: '
            : '';
    console.error(`grc-sheets sandbox: ${where}${(e as Error).message}`);
    // A keys or binding file that breaks the rules is configuration (2); anything else failed while starting (1).
    return e instanceof KeysError || e instanceof BindingFileError ? EXIT.usage : EXIT.failed;
  }
}
