import { guidOf, KINDS, type Kind } from './guids';
import { rng, type Rng } from './random';
import { sizesFor, type Sizes } from './sizes';
import { standing, type Standing } from './standing';

export type Rec = Record<string, unknown>;

/** A dataset generated on demand: record i is computed from the seed when asked for, never stored. */
export interface Table {
  readonly count: number;
  at(index: number): Rec;
}

export const table = (count: number, at: (i: number) => Rec): Table => ({ count, at });

/** A small standing list as a dataset (custom field definitions, types, scores): each read gets a copy. */
export const listTable = (items: readonly object[]): Table => table(items.length, (i) => ({ ...items[i]! }));

/** What every generator needs: the seed, the sizes, the standing data and per-record randomness. */
export interface Ctx {
  seed: number;
  sizes: Sizes;
  st: Standing;
  /** Root cause categories below the top level: what risks and incidents point at. */
  rootCauseLeaves: Standing['rootCauses'];
  guid(kind: Kind, index: number): string;
  rng(kind: Kind, index: number, stream?: number): Rng;
}

export function context(seed: number, scale: number): Ctx {
  const st = standing(seed);
  return {
    seed,
    sizes: sizesFor(scale),
    st,
    rootCauseLeaves: st.rootCauses.filter((x) => x.ParentGUID !== null),
    guid: (kind, index) => guidOf(seed, kind, index),
    rng: (kind, index, stream = 0) => rng(seed, KINDS[kind], index, stream),
  };
}

// Generated dates count back from a fixed day, not from today, so a seed gives the same data every day.
const BASE = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
export const dateBefore = (days: number) => new Date(BASE - days * DAY).toISOString().slice(0, 10);
export const dateAfter = (days: number) => new Date(BASE + days * DAY).toISOString().slice(0, 10);
export const dateTimeBefore = (days: number, r: Rng) =>
  new Date(BASE - days * DAY + r.int(DAY)).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const code = (prefix: string, i: number) => `${prefix}-${String(i + 1).padStart(6, '0')}`;
