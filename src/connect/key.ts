import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/** Where every command (check, refresh, template, post) takes the API key from; never from the command line. */
export const KEY_ID_VAR = 'GRC_SHEETS_KEY_ID';
export const KEY_PASSWORD_VAR = 'GRC_SHEETS_KEY_PASSWORD';

/** Options that would put the key on the command line, refused by name before anything else is parsed. */
const KEY_OPTIONS = [
  '--password',
  '--key-password',
  '--pass',
  '-p',
  '--identifier',
  '--key-id',
  '--key',
  '--user',
  '-u',
  '--credentials',
];

export class KeyError extends Error {
  override name = 'KeyError';
}

/**
 * The first argument that tries to give the key on the command line, with why it is refused: a command
 * line is kept in the shell's history and shown to every user of the machine in the process list.
 */
export function keyOnCommandLine(argv: readonly string[]): string | null {
  const given = argv.find((a) => KEY_OPTIONS.includes(a.split('=')[0]!));
  if (!given) return null;
  return (
    `${given.split('=')[0]} is refused: a key on the command line is kept in the shell's history and shown to ` +
    `every user of this machine in the process list. Set ${KEY_ID_VAR} and ${KEY_PASSWORD_VAR} in the environment, ` +
    'or leave them unset to be asked (the password is not shown as you type).'
  );
}

export interface KeySource {
  env: Record<string, string | undefined>;
  /** Interactive terminal to prompt on; absent when stdin is not a terminal. */
  tty?: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream };
}

/** The key from the environment variables, or asked for on the terminal (the password without echo). */
export async function readKey(source: KeySource): Promise<{ identifier: string; password: string }> {
  let identifier = source.env[KEY_ID_VAR]?.trim() ?? '';
  let password = source.env[KEY_PASSWORD_VAR] ?? '';
  if (identifier && password) return { identifier, password };
  if (!source.tty)
    throw new KeyError(
      `no API key: set ${KEY_ID_VAR} and ${KEY_PASSWORD_VAR}, or run this command in a terminal to be asked for them.`,
    );
  if (!identifier) identifier = (await ask(source.tty, 'API key identifier: ', false)).trim();
  if (!password) password = await ask(source.tty, 'API key password (not shown): ', true);
  if (!identifier || !password)
    throw new KeyError('no API key: the identifier and the password are both needed.');
  return { identifier, password };
}

function ask(tty: NonNullable<KeySource['tty']>, question: string, secret: boolean): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) tty.output.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: tty.input, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      if (secret) tty.output.write('\n');
      resolve(answer);
    });
    // After the question is written: what is typed from here on is not echoed.
    muted = secret;
  });
}
