import { MIN_SCALE } from './sizes';
import { seedOf } from './random';
import { generate } from './tables';
import type { Rec } from './context';

/** The seed the sandbox uses unless told otherwise (`grc-sheets sandbox --seed`, default 1). */
export const DEFAULT_SEED = 1;

/**
 * The sandbox's standing data and a few records of every dataset, by catalogue id, as the write-back reads
 * them: what example requests are made from (writeback/environment/example.ts), in the import report and in
 * the taskpane alike. Pure, so the add-in can make the same example without a sandbox; with the default seed
 * the names and GUIDs are those `npm start`'s sandbox serves.
 */
export function sampleStanding(seed: number = DEFAULT_SEED, most = 50): Map<string, readonly Rec[]> {
  const { tables } = generate(seedOf(seed), MIN_SCALE);
  const out = new Map<string, readonly Rec[]>();
  for (const [id, t] of Object.entries(tables))
    out.set(id, Array.from({ length: Math.min(t.count, most) }, (_, i) => t.at(i)));
  return out;
}
