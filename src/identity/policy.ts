import { z } from 'zod';
import type { May } from '../contracts/identity';
import { impliedFields, joinFields } from './implied-reads';

/**
 * The relay's policy: which signed-in people (by the groups or roles claim of their token) may use which
 * environments, read which datasets, post which write-back flows, and post to production. DirectData has
 * no such filter (a key reads everything), so this is where an organization says who sees what.
 *
 * A person may do what any rule naming one of their groups allows; nothing else. A refusal names the
 * rule(s) that fell short and whom to ask. Parsing checks every entry against what this relay serves
 * (its environments, the catalogue's dataset ids and areas, the write-back flows and operations) and says
 * what is wrong with each, so a typo is found at start, not as a refusal weeks later.
 */

const list = z.union([z.literal('*'), z.array(z.string().min(1))]);

const ruleSchema = z.strictObject({
  /** Named in refusals: "rule "reporting" (datasets)". */
  name: z.string().min(1),
  /** Values of the groups/roles claim this rule is for (Entra ID: group object ids, or app role values). */
  groups: z.array(z.string().min(1)).min(1),
  environments: list,
  /** Catalogue ids (`risk`), areas (`area:Risks`), or '*'. */
  datasets: list.default([]),
  /** Write-back flow ids (`incidents`), single write operation ids (`task-create`), or '*'. A flow brings the reads it needs. */
  flows: list.default([]),
  /** May post to the production environments this rule gives (writes there need it besides `flows`). */
  production: z.boolean().default(false),
  /** Whom to ask about this rule, when not the policy's contact. */
  contact: z.string().min(1).optional(),
});

const policySchema = z.strictObject({
  /** Whom a refused person should ask (a team, a mailbox, a ticket queue). */
  contact: z.string().min(1),
  rules: z.array(ruleSchema),
});

export type PolicyRule = z.infer<typeof ruleSchema>;

/** What this relay serves: the names a policy may use. */
export interface PolicyVocabulary {
  /** Environment name -> production flag. */
  environments: ReadonlyMap<string, boolean>;
  /** Dataset id -> area. */
  datasets: ReadonlyMap<string, string>;
  /** Flow id -> the write operations it calls and the datasets it reads. */
  flows: ReadonlyMap<string, { operations: readonly string[]; reads: readonly string[] }>;
  /** Every write operation id. */
  operations: ReadonlySet<string>;
}

export interface Refusal {
  rule: string;
  ask: string;
  message: string;
}

/**
 * A read the policy allows only because a write flow needs it (the rule does not name the dataset): the
 * relay serves these fields of each record, no others (implied-reads.ts).
 */
export interface ImpliedRead {
  implied: readonly string[];
  /** The rules that imply it, for the log. */
  rule: string;
}

export class PolicyError extends Error {
  override name = 'PolicyError';
}

interface CompiledRule {
  rule: PolicyRule;
  environments: ReadonlySet<string> | '*';
  datasets: ReadonlySet<string> | '*';
  /** Datasets the rule's flows read that it does not name: the fields served of each, or '*'. */
  implied: ReadonlyMap<string, readonly string[] | '*'>;
  operations: ReadonlySet<string> | '*';
  /** The flow and operation names as written, for /api/me. */
  flowNames: readonly string[] | '*';
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The known names nearest a misspelt one (the fewest edits, at most two), for "did you mean". */
function suggestion(value: string, known: Iterable<string>): string {
  const v = value.toLowerCase();
  const scored = [...known].map((k) => [k, distance(v, k.toLowerCase())] as const);
  const best = Math.min(...scored.map(([, d]) => d));
  const near =
    best <= 2
      ? scored
          .filter(([, d]) => d === best)
          .slice(0, 3)
          .map(([k]) => k)
      : [];
  return near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '';
}

export class Policy {
  private constructor(
    readonly contact: string,
    private readonly rules: readonly CompiledRule[],
    private readonly vocabulary: PolicyVocabulary,
  ) {}

  /** Parses and checks a policy; every wrong entry is one line of the PolicyError's message. */
  static parse(input: unknown, vocabulary: PolicyVocabulary, source = 'the policy'): Policy {
    const parsed = policySchema.safeParse(input);
    if (!parsed.success)
      throw new PolicyError(
        `invalid policy in ${source}:\n${parsed.error.issues.map((i) => `  ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`).join('\n')}`,
      );
    const problems: string[] = [];
    const names = new Set<string>();
    const areas = new Map<string, string>();
    for (const area of vocabulary.datasets.values()) areas.set(area.toLowerCase(), area);
    const compiled = parsed.data.rules.map((rule, i): CompiledRule => {
      const at = `rules.${i} ("${rule.name}")`;
      if (names.has(rule.name))
        problems.push(`  ${at}.name: another rule has this name; names tell refusals apart`);
      names.add(rule.name);
      let environments: Set<string> | '*' = '*';
      if (rule.environments !== '*') {
        environments = new Set();
        rule.environments.forEach((e, j) => {
          if (vocabulary.environments.has(e)) (environments as Set<string>).add(e);
          else
            problems.push(
              `  ${at}.environments.${j}: "${e}" is not an environment of this relay (${[...vocabulary.environments.keys()].join(', ')})`,
            );
        });
      }
      let datasets: Set<string> | '*' = '*';
      if (rule.datasets !== '*') {
        datasets = new Set();
        rule.datasets.forEach((d, j) => {
          if (d.startsWith('area:')) {
            const area = areas.get(d.slice(5).trim().toLowerCase());
            if (!area)
              problems.push(
                `  ${at}.datasets.${j}: "${d}" names no area (${[...new Set(vocabulary.datasets.values())].map((a) => `area:${a}`).join(', ')})`,
              );
            else for (const [id, a] of vocabulary.datasets) if (a === area) (datasets as Set<string>).add(id);
          } else if (vocabulary.datasets.has(d)) (datasets as Set<string>).add(d);
          else
            problems.push(
              `  ${at}.datasets.${j}: "${d}" is no dataset id of the catalogue${suggestion(d, vocabulary.datasets.keys())} (an area is written area:Risks)`,
            );
        });
      }
      let operations: Set<string> | '*' = '*';
      const implied = new Map<string, readonly string[] | '*'>();
      if (rule.flows !== '*') {
        operations = new Set();
        rule.flows.forEach((f, j) => {
          const flow = vocabulary.flows.get(f);
          if (flow) {
            for (const op of flow.operations) (operations as Set<string>).add(op);
            // Least privilege: what the flow reads is served only as far as it uses it, unless the rule names it.
            if (datasets !== '*')
              for (const d of flow.reads) if (!datasets.has(d)) implied.set(d, joinFields(implied.get(d), impliedFields(f, d)));
          } else if (vocabulary.operations.has(f)) (operations as Set<string>).add(f);
          else
            problems.push(
              `  ${at}.flows.${j}: "${f}" is neither a write-back flow (${[...vocabulary.flows.keys()].join(', ')}) nor a write operation id${suggestion(f, [...vocabulary.flows.keys(), ...vocabulary.operations])}`,
            );
        });
      }
      if (
        rule.production &&
        environments !== '*' &&
        ![...environments].some((e) => vocabulary.environments.get(e))
      )
        problems.push(
          `  ${at}.production: true, but none of its environments is a production one; give it the production environment or drop the flag`,
        );
      return { rule, environments, datasets, implied, operations, flowNames: rule.flows };
    });
    if (problems.length) throw new PolicyError(`invalid policy in ${source}:\n${problems.join('\n')}`);
    return new Policy(parsed.data.contact, compiled, vocabulary);
  }

  get ruleCount(): number {
    return this.rules.length;
  }

  private mine(groups: readonly string[]): CompiledRule[] {
    return this.rules.filter((r) => r.rule.groups.some((g) => groups.includes(g)));
  }

  private refuse(rules: CompiledRule[], what: string, message: string): Refusal {
    return {
      rule: `${rules.length === 1 ? 'rule' : 'rules'} ${rules.map((r) => `"${r.rule.name}"`).join(', ')} (${what})`,
      ask: rules.find((r) => r.rule.contact)?.rule.contact ?? this.contact,
      message,
    };
  }

  /**
   * null when the person may make this call; an ImpliedRead when they may read only the fields a flow of
   * theirs uses; else the refusal. `endpoint` is the catalogue's endpoint (kind and id).
   */
  decide(
    groups: readonly string[],
    env: string,
    endpoint: { kind: 'dataset' | 'operation'; id: string; title: string },
    groupsOverage = false,
  ): Refusal | ImpliedRead | null {
    const mine = this.mine(groups);
    if (mine.length === 0)
      return {
        rule: `no rule for ${groups.length ? `groups ${groups.join(', ')}` : 'a token without groups'}`,
        ask: this.contact,
        message: groupsOverage
          ? 'Your sign-in carries no groups (you are in too many for the token: the provider left them out); the relay administrator can use app roles instead (docs/relay.md, "Entra ID").'
          : `No rule of the relay's policy is for your groups${groups.length ? ` (${groups.join(', ')})` : ''}.`,
      };
    const here = mine.filter((r) => r.environments === '*' || r.environments.has(env));
    if (here.length === 0)
      return this.refuse(mine, 'environments', `Your rules do not give you the environment "${env}".`);
    if (endpoint.kind === 'dataset') {
      if (here.some((r) => r.datasets === '*' || r.datasets.has(endpoint.id))) return null;
      const implying = here.filter((r) => r.implied.has(endpoint.id));
      if (implying.length > 0) {
        const fields = implying.map((r) => r.implied.get(endpoint.id)!);
        if (fields.includes('*')) return null;
        return {
          implied: [...new Set(fields.flat())],
          rule: `${implying.length === 1 ? 'rule' : 'rules'} ${implying.map((r) => `"${r.rule.name}"`).join(', ')} (flows)`,
        };
      }
      return this.refuse(
        here,
        'datasets',
        `Your rules do not let you read "${endpoint.title}" (${endpoint.id}) on ${env}.`,
      );
    }
    const writers = here.filter((r) => r.operations === '*' || r.operations.has(endpoint.id));
    if (writers.length === 0)
      return this.refuse(
        here,
        'flows',
        `Your rules do not let you post "${endpoint.title}" (${endpoint.id}) on ${env}.`,
      );
    if (this.vocabulary.environments.get(env) && !writers.some((r) => r.rule.production))
      return this.refuse(
        writers,
        'production',
        `${env} is a production environment and your rules do not let you post to production.`,
      );
    return null;
  }

  /**
   * The names of the rules that allow this call, as decide() allows it: for a dataset, the rules that give it,
   * or, when none does, the rules whose flows imply it; for a write, the rules that give the operation (on a
   * production environment, those of them with `production`). Empty when no rule allows it. The relay's
   * signed statement names them (evidence.ts).
   */
  allowedBy(
    groups: readonly string[],
    env: string,
    endpoint: { kind: 'dataset' | 'operation'; id: string },
  ): string[] {
    const here = this.mine(groups).filter((r) => r.environments === '*' || r.environments.has(env));
    let allowing: CompiledRule[];
    if (endpoint.kind === 'dataset') {
      allowing = here.filter((r) => r.datasets === '*' || r.datasets.has(endpoint.id));
      if (allowing.length === 0) allowing = here.filter((r) => r.implied.has(endpoint.id));
    } else {
      allowing = here.filter((r) => r.operations === '*' || r.operations.has(endpoint.id));
      if (this.vocabulary.environments.get(env)) allowing = allowing.filter((r) => r.rule.production);
    }
    return allowing.map((r) => r.rule.name);
  }

  /**
   * What each rule grants, one line per rule, implied reads included: logged at start and at each reload,
   * so the policy file's reader sees what a flow brings.
   */
  grants(): string[] {
    const list = (v: ReadonlySet<string> | readonly string[] | '*') => (v === '*' ? 'all' : [...v].join(', ') || 'none');
    return this.rules.map((r) => {
      const implied = [...r.implied].map(([d, f]) => `${d} (${f === '*' ? 'whole records' : f.join(', ')})`);
      return [
        `rule "${r.rule.name}" (groups ${r.rule.groups.join(', ')})`,
        `environments: ${list(r.environments)}`,
        `datasets: ${list(r.datasets)}`,
        `flows: ${list(r.flowNames)}${r.operations === '*' ? '' : ` (operations ${list(r.operations)})`}`,
        `implied reads: ${implied.join('; ') || 'none'}`,
        `production posting: ${r.rule.production ? 'yes' : 'no'}`,
      ].join('; ');
    });
  }

  /** What the person may do, for the taskpane (GET /api/me); `usable` are the environments with a held key. */
  may(groups: readonly string[], usable: ReadonlySet<string>): May {
    const out: May = { environments: [], datasets: {}, flows: {}, production: {} };
    const mine = this.mine(groups);
    for (const [env, production] of this.vocabulary.environments) {
      if (!usable.has(env)) continue;
      const here = mine.filter((r) => r.environments === '*' || r.environments.has(env));
      if (here.length === 0) continue;
      out.environments.push(env);
      out.datasets[env] = here.some((r) => r.datasets === '*')
        ? '*'
        : [...new Set(here.flatMap((r) => [...(r.datasets as Set<string>)]))].sort();
      out.flows[env] = here.some((r) => r.flowNames === '*')
        ? '*'
        : [...new Set(here.flatMap((r) => r.flowNames as string[]))].sort();
      // Posting at all needs a write flow; on production, one from a rule with production: true.
      out.production[env] = here.some(
        (r) => (r.operations === '*' || r.operations.size > 0) && (!production || r.rule.production),
      );
    }
    return out;
  }
}
