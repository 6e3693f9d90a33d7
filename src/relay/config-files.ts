import { accessSync, constants, statSync } from 'node:fs';
import type { RelayConfig } from './config';

/** What each file the configuration names is for, said in the message when it cannot be used. */
type Want = { field: string; path: string; kind: 'file' | 'folder'; what: string };

function wanted(config: RelayConfig): Want[] {
  const out: Want[] = [];
  if (config.tls) {
    out.push({
      field: 'tls.cert',
      path: config.tls.cert,
      kind: 'file',
      what: 'the PEM file of the certificate chain (fullchain.pem)',
    });
    out.push({
      field: 'tls.key',
      path: config.tls.key,
      kind: 'file',
      what: 'the PEM file of the private key',
    });
  }
  for (const [name, env] of Object.entries(config.environments)) {
    if (env.ca)
      out.push({
        field: `environments.${name}.ca`,
        path: env.ca,
        kind: 'file',
        what: 'the PEM file of the CA to trust for this environment',
      });
    if (env.binding)
      out.push({
        field: `environments.${name}.binding`,
        path: env.binding,
        kind: 'file',
        what: 'the binding made by grc-sheets binding import from the Swagger file (docs/binding.md)',
      });
  }
  if (config.staticDir)
    out.push({
      field: 'staticDir',
      path: config.staticDir,
      kind: 'folder',
      what: 'the folder of the built add-in (npm run build makes dist/)',
    });
  return out;
}

function problem(w: Want): string | null {
  let isFolder: boolean;
  try {
    isFolder = statSync(w.path).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return `${w.path} does not exist; give ${w.what}`;
    if (code === 'EACCES') return `${w.path} cannot be read by this user; check its permissions`;
    return `${w.path} cannot be used (${code ?? (e as Error).message})`;
  }
  if (w.kind === 'folder' && !isFolder) return `${w.path} is a file; give ${w.what}`;
  if (w.kind === 'file' && isFolder) return `${w.path} is a folder; give ${w.what}`;
  try {
    accessSync(w.path, constants.R_OK | (w.kind === 'folder' ? constants.X_OK : 0));
  } catch {
    return `${w.path} cannot be read by this user; check its permissions`;
  }
  return null;
}

/**
 * Every file and folder the configuration names, checked before the relay starts, one line per problem
 * named by its field: a first run with relay.example.json as it is then says what to change, rather than
 * failing on the first raw ENOENT.
 */
export function configFileProblems(config: RelayConfig): string[] {
  return wanted(config).flatMap((w) => {
    const p = problem(w);
    return p ? [`  ${w.field}: ${p}`] : [];
  });
}
