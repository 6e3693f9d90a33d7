import { z } from 'zod';
import { heldKey } from './held-key';

/**
 * What `grc-sheets check` found, as `--json` prints it (one schema: scripts parse with it, the table is
 * rendered from it). The check only reads: `readOnly` is always true so a script can assert it.
 */

/**
 * How one dataset fared. Only `answers`, `empty`, `sandbox-lacks`, `not-checked` and `not-in-binding` count as
 * passing: `sandbox-lacks` is the practice sandbox saying it has no data for a dataset only the customer's own
 * service has (nothing in the binding to fix).
 */
export const DATASET_RESULTS = [
  'answers',
  'empty',
  'sandbox-lacks',
  'bad-shape',
  'not-found',
  'forbidden',
  'refused-key',
  'failed',
  'not-checked',
  'not-in-binding',
] as const;
export type DatasetResult = (typeof DATASET_RESULTS)[number];

export const PASSING: ReadonlySet<DatasetResult> = new Set([
  'answers',
  'empty',
  'sandbox-lacks',
  'not-checked',
  'not-in-binding',
]);

export const datasetCheck = z.object({
  id: z.string(),
  title: z.string(),
  /** Relative to the environment's API root. */
  path: z.string(),
  pathSource: z.enum(['documented', 'bound', 'assumed']),
  /** A documented dataset the environment's API file does not list, checked at the spec's path. */
  notInFile: z.boolean().optional(),
  result: z.enum(DATASET_RESULTS),
  /** The HTTP status the service (or relay) answered, when there was an answer. */
  status: z.number().int().optional(),
  /** Whether the first record fits the catalogue's record schema; null when no record was read. */
  firstRecordFits: z.boolean().nullable(),
  /** What happened, in words. */
  message: z.string(),
  /** What to do about it; absent when nothing needs doing. */
  fix: z.string().optional(),
});
export type DatasetCheck = z.infer<typeof datasetCheck>;

export const checkReport = z.object({
  readOnly: z.literal(true),
  notice: z.string(),
  target: z.object({
    via: z.enum(['relay', 'direct']),
    /** The relay's or the service's URL (never with credentials). */
    url: z.string(),
    environment: z.string().nullable(),
    production: z.boolean().nullable(),
    /** The binding the paths come from: its source file and hash, or null for the catalogue's own paths. */
    binding: z.object({ file: z.string(), sha256: z.string() }).nullable(),
  }),
  authentication: z.object({
    ok: z.boolean(),
    message: z.string(),
    /** The address the service sees the calls come from, when known (the relay's egressIp setting). */
    callerIp: z.string().nullable(),
  }),
  /** Through a relay that holds this environment's key: its fingerprint and remaining validity (where recorded). */
  heldKey: heldKey.nullable().optional(),
  datasets: z.array(datasetCheck),
  summary: z.object({
    checked: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    notChecked: z.number().int(),
  }),
  ok: z.boolean(),
});
export type CheckReport = z.infer<typeof checkReport>;

export const READ_ONLY_NOTICE =
  'Read-only: this check sends GET requests only, reads the first record of each dataset and cancels the ' +
  'rest of the download. It never creates or changes anything in the service.';
