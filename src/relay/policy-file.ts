import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';
import type { Catalog } from '../catalog';
import { Policy, PolicyError, type PolicyVocabulary } from '../identity/policy';
import { datasetsRead, FLOW_DESCRIPTIONS as FLOWS } from '../contracts/flows';
import { RelayConfigError } from './config';
import { readTextFile } from '../files/text';

/** The names a policy on this relay may use: its environments, their catalogues' datasets, the flows. */
export function policyVocabulary(
  environments: ReadonlyMap<string, boolean>,
  catalogs: readonly Catalog[],
): PolicyVocabulary {
  const datasets = new Map<string, string>();
  const operations = new Set<string>();
  for (const c of catalogs) {
    for (const d of c.datasets) datasets.set(d.id, d.area);
    for (const o of c.operations) operations.add(o.id);
  }
  const flows = new Map(
    FLOWS.map((f) => [
      f.id as string,
      {
        operations: [...f.operations, ...Object.keys(f.steps ?? {})],
        reads: datasetsRead(f),
      },
    ]),
  );
  return { environments, datasets, flows, operations };
}

function read(path: string, vocabulary: PolicyVocabulary): Policy {
  let text: string;
  try {
    text = readTextFile(path);
  } catch (e) {
    throw new PolicyError(
      `cannot read the policy ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new PolicyError(`the policy ${path} is not valid JSON: ${(e as Error).message}`);
  }
  return Policy.parse(raw, vocabulary, path);
}

/**
 * The policy in force, read at start (a wrong entry stops the relay, one line per entry) and again when
 * the file changes or on SIGHUP; a reload that fails keeps the policy in force and logs why.
 */
export class PolicyFile {
  private watcher: FSWatcher | undefined;
  private pending: NodeJS.Timeout | undefined;

  private constructor(
    private readonly path: string,
    private readonly vocabulary: PolicyVocabulary,
    private readonly logger: Logger,
    public current: Policy,
  ) {}

  static load(path: string, vocabulary: PolicyVocabulary, logger: Logger): PolicyFile {
    try {
      const file = new PolicyFile(path, vocabulary, logger, read(path, vocabulary));
      file.logGrants('policy read');
      return file;
    } catch (e) {
      if (e instanceof PolicyError) throw new RelayConfigError(e.message);
      throw e;
    }
  }

  reload(reason: string): void {
    try {
      this.current = read(this.path, this.vocabulary);
      this.logger.info({ policy: this.path, rules: this.current.ruleCount, reason }, 'policy reloaded');
      this.logGrants(reason);
    } catch (e) {
      if (!(e instanceof PolicyError)) throw e;
      this.logger.error(
        { policy: this.path, reason },
        `policy not reloaded, the previous one stays in force: ${e.message}`,
      );
    }
  }

  /** What each rule grants, implied reads included: what the policy file does not spell out. */
  private logGrants(reason: string): void {
    this.logger.info({ policy: this.path, reason, grants: this.current.grants() }, 'policy: what each rule grants');
  }

  /** Watches the policy's folder (an edit by rename replaces the file). */
  start(): void {
    const name = basename(this.path);
    try {
      this.watcher = watch(dirname(this.path), { persistent: false }, (_event, file) => {
        if (file && file.toString() !== name) return;
        clearTimeout(this.pending);
        this.pending = setTimeout(() => this.reload('policy file changed'), 200);
        this.pending.unref();
      });
      this.watcher.on('error', () => undefined);
    } catch (e) {
      this.logger.warn(
        { policy: this.path },
        `the policy file is not watched (${(e as Error).message}); send SIGHUP after an edit`,
      );
    }
  }

  stop(): void {
    this.watcher?.close();
    clearTimeout(this.pending);
  }
}
