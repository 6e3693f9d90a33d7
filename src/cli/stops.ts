import { connectEnvironment, ConnectError, type Connection, type ConnectIo } from '../connect/connect';
import { EXIT } from './exit';

/** How a workbook command stops: `usage` (exit 2, with its help) or `failed` (exit 1), each naming the command. */
export function stops(command: string, help: string, io: Pick<ConnectIo, 'stderr'>) {
  return {
    usage: (message: string) => {
      io.stderr(`grc-sheets ${command}: ${message}\n\n${help}`);
      return EXIT.usage;
    },
    failed: (message: string) => {
      io.stderr(`grc-sheets ${command}: ${message}`);
      return EXIT.failed;
    },
  };
}

/** connectEnvironment, with a refusal said the command's way: the Connection, or the exit code. */
export async function connectOrStop(
  values: Parameters<typeof connectEnvironment>[0],
  io: ConnectIo,
  stop: ReturnType<typeof stops>,
): Promise<Connection | number> {
  try {
    return await connectEnvironment(values, io);
  } catch (e) {
    if (e instanceof ConnectError) return e.usage ? stop.usage(e.message) : stop.failed(e.message);
    throw e;
  }
}
