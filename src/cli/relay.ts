import { parseArgs } from 'node:util';
import { ENV_VARS, loadRelayConfig, RelayConfigError, startRelay } from '../relay';
import { parseOptions, untilStopped } from './options';

const HELP = `Usage: grc-sheets relay --config FILE

Runs the fixed-IP relay between the taskpane and the service (see docs/relay.md).

Options:
  --config FILE   the relay's JSON configuration (relay.example.json shows every setting)
  --help          this text

Environment variables replace the file's settings:
${Object.entries(ENV_VARS)
  .map(([name, field]) => `  ${name.padEnd(30)} ${field}`)
  .join('\n')}`;

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
  let relay;
  try {
    relay = await startRelay(loadRelayConfig(values.config));
  } catch (e) {
    if (e instanceof RelayConfigError) {
      console.error(`grc-sheets relay: ${e.message}`);
      return 2;
    }
    throw e;
  }
  console.error(`grc-sheets relay: listening on ${relay.url}`);
  await untilStopped();
  await relay.close().catch(() => undefined);
  return 0;
}
