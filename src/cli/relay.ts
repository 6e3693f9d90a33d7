import { parseArgs } from 'node:util';
import { ENV_VARS, loadRelayConfig, RelayConfigError, startRelay } from '../relay';

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
  let values: { config?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (e) {
    console.error(`grc-sheets relay: ${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
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
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      relay.close().then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}
