import { z } from 'zod';
import type { Endpoint } from './endpoint';
import { boundEndpoint, pathTemplate, type BoundEndpoint, type BoundOperation, type BoundDataset } from './placement';

/**
 * A binding: for one customer environment, which operation of the customer's API file each catalogue
 * endpoint is, and where each catalogue field goes in it (placements.ts), as `grc-sheets binding import`
 * made it from the file and the admin's overrides (docs/binding.md). Version 2: placements (version 1,
 * property maps, is refused with "re-import").
 */
export const BINDING_FORMAT = 'grc-sheets-binding';
export const BINDING_VERSION = 2;

/** "POST /thirdparties/{id}/contracts": how candidates, decisions and overrides name an operation of the file. */
export const operationRef = z
  .string()
  .regex(/^(GET|POST|PUT|PATCH) \/\S*$/, 'expected "METHOD /path", e.g. "POST /incidents"');

/** One operation the admin may choose for a catalogue endpoint, and why it is a candidate. */
export const candidate = z.object({
  ref: operationRef,
  operationId: z.string().optional(),
  summary: z.string().optional(),
  deprecated: z.boolean().optional(),
  score: z.number(),
  reasons: z.array(z.string()),
});
export type CandidateRef = z.infer<typeof candidate>;

/**
 * A decision the admin must make: near-ties (or only deprecated operations) for one catalogue endpoint.
 * The endpoint is unavailable until the admin picks one in the overrides file (`use <id> = <ref>`).
 */
export const decision = z.object({
  reason: z.string(),
  candidates: z.array(candidate).min(1),
});
export type Decision = z.infer<typeof decision>;

/**
 * What the binding cannot do, by consequence: a flow or dataset that is unavailable, a file property
 * required that nothing fills (it became a required extra column), a catalogue field the file has no
 * room for (its column is not offered), a documented dataset the file does not list (kept at the spec's
 * path: keepsDocumented).
 */
export const consequence = z.object({
  /** enum-unread: an enum whose values the file does not name (which number is "Months"): the admin maps them. */
  kind: z.enum(['unavailable', 'required-extra', 'field-not-in-file', 'dropped-override', 'enum-unread', 'documented-not-in-file']),
  /** The catalogue endpoint it is about. */
  endpoint: z.string(),
  /** Catalogue fields or extra column headers it concerns. */
  columns: z.array(z.string()),
  message: z.string(),
  /** enum-unread, as values for the reports that word it their way: why, and the override line to fill in per value. */
  unread: z.object({ why: z.string(), maps: z.array(z.string()) }).optional(),
});
export type Consequence = z.infer<typeof consequence>;

export const extraDataset = z.object({
  id: z.string().regex(/^x-[a-z0-9-]+$/, 'an extra dataset id is x-<slug>'),
  path: pathTemplate,
  title: z.string(),
  operationId: z.string().optional(),
  /** Where the records are in the answer ("" for a bare array). */
  records: z.string(),
  properties: z.array(z.string()),
});
export type ExtraDataset = z.infer<typeof extraDataset>;

/** openapi-3.2: read as 3.1 (the same schema dialect); swagger-parser does not know 3.2 yet. */
export const SPECS = ['swagger-2.0', 'openapi-3.0', 'openapi-3.1', 'openapi-3.2'] as const;

export const binding = z
  .object({
    format: z.literal(BINDING_FORMAT),
    version: z.literal(BINDING_VERSION, {
      error: 'this binding was written by an older grc-sheets (version 1): import the API file again',
    }),
    source: z.object({
      file: z.string(),
      sha256: z.string(),
      spec: z.enum(SPECS),
      title: z.string().optional(),
      apiVersion: z.string().optional(),
      basePath: z.string(),
      importedAt: z.string(),
      /** The admin's overrides file the import applied, if any. */
      overrides: z.object({ file: z.string(), sha256: z.string() }).optional(),
    }),
    /** By catalogue id: the bound operation or dataset. */
    endpoints: z.record(z.string(), boundEndpoint),
    /** By catalogue id: decisions still open (the endpoint is unavailable until the admin picks). */
    decisions: z.record(z.string(), decision),
    /** By catalogue id: endpoints the file has no operation for, with why in a few words. */
    missing: z.record(z.string(), z.string()),
    /**
     * Catalogue ids the admin's overrides bind nothing to (`none <id>`): unavailable even where the spec
     * documents a path (keepsDocumented). Absent in bindings imported before it was recorded.
     */
    none: z.array(z.string()).optional(),
    extraDatasets: z.array(extraDataset),
    consequences: z.array(consequence),
  })
  .superRefine((b, ctx) => {
    const seen = new Map<string, string>();
    const note = (id: string, where: string) => {
      const before = seen.get(id);
      if (before)
        ctx.addIssue({ code: 'custom', path: [where, id], message: `"${id}" is in both ${before} and ${where}` });
      else seen.set(id, where);
    };
    for (const id of Object.keys(b.endpoints)) note(id, 'endpoints');
    for (const id of Object.keys(b.decisions)) note(id, 'decisions');
    for (const id of Object.keys(b.missing)) note(id, 'missing');
  });
export type Binding = z.infer<typeof binding>;

export type { BoundEndpoint, BoundOperation, BoundDataset };

/** The bound operation or dataset for a catalogue id, or undefined when it is missing or undecided. */
export function boundFor(b: Binding, id: string): BoundEndpoint | undefined {
  return b.endpoints[id];
}

/** Why an endpoint is missing when the admin's overrides said `none` for it (the importer writes it in `missing`). */
export const NONE_REASON = "the admin's overrides bind nothing to it";

/** Whether the admin took the endpoint away with `none <id>`. */
export function declined(b: Pick<Binding, 'none' | 'missing'>, id: string): boolean {
  // Bindings imported before `none` was recorded say it only in `missing`.
  return b.none ? b.none.includes(id) : b.missing[id] === NONE_REASON;
}

/**
 * A dataset whose path the spec documents stays available at that path when the customer's API file does
 * not list it (files often leave DirectData out): audit teams keep their reports the day the admin binds.
 * Unless the admin says `none` for it. Writes are never kept this way: where they go and what their bodies
 * look like is the file's to say. Assumed paths still need the file or an override.
 */
export function keepsDocumented(b: Pick<Binding, 'endpoints' | 'none' | 'missing'>, e: Endpoint): boolean {
  return e.kind === 'dataset' && e.documented && !b.endpoints[e.id] && !declined(b, e.id);
}
