import { parseArgs } from 'node:util';
import { ENV_VARS, loadRelayConfig, RelayConfigError, startRelay } from '../relay';
import { EXIT, EXIT_CODES_HELP, portInUseMessage, unreadableOptionFile } from './exit';
import { parseOptions, untilStopped } from './options';

const HELP = `Usage: grc-sheets relay --config FILE

Runs the fixed-IP relay between the taskpane and the service (see docs/relay.md).

Options:
  --config FILE   the relay's JSON configuration (relay.example.json shows every setting)
  --help          this text

Environment variables replace the file's settings:
${Object.entries(ENV_VARS)
  .map(([name, field]) => `  ${name.padEnd(34)} ${field}`)
  .join('\n')}

${EXIT_CODES_HELP}`;

const NO_CONFIG = `grc-sheets relay: no configuration given. Pass the relay's JSON configuration file:

  grc-sheets relay --config relay.json

Start from relay.example.json (it shows every setting; docs/relay.md explains them). To try the relay
with the sandbox on this machine, npm start runs both. Settings can also come from GRC_RELAY_*
environment variables instead of a file (grc-sheets relay --help lists them).`;

export async function run(argv: string[]): Promise<number> {
  const values = parseOptions(
    'relay',
    HELP,
    () =>
      parseArgs({
        args: argv,
        options: { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' } },
        strict: true,
      }).values,
  );
  if (typeof values === 'number') return values;
  if (!values.config && !Object.keys(ENV_VARS).some((name) => process.env[name] !== undefined)) {
    console.error(NO_CONFIG);
    return EXIT.usage;
  }
  const unreadable = unreadableOptionFile('relay', [
    ['--config', values.config, 'the relay configuration (relay.example.json)'],
  ]);
  if (unreadable) {
    console.error(unreadable);
    return EXIT.usage;
  }
  let relay;
  try {
    relay = await startRelay(loadRelayConfig(values.config));
  } catch (e) {
    if (e instanceof RelayConfigError) {
      console.error(`grc-sheets relay: ${e.message}`);
      return EXIT.usage;
    }
    const inUse = portInUseMessage(
      e,
      `Choose another: listen.port in ${values.config ?? 'the configuration'}, or GRC_RELAY_PORT=N.`,
    );
    if (inUse) {
      console.error(`grc-sheets relay: ${inUse}`);
      return EXIT.failed;
    }
    throw e;
  }
  // Listening for SIGINT/SIGTERM before saying so: whoever waits for this line may stop the relay at once.
  const stopped = untilStopped();
  console.error(`grc-sheets relay: listening on ${relay.url}`);
  await stopped;
  await relay.close().catch(() => undefined);
  return EXIT.ok;
}
