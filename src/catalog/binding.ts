import { z } from 'zod';
import { isValidTemplate } from './paths';
import { wireShape } from './wire';

/**
 * A binding: for one customer environment, where each catalogue endpoint lives and how its JSON properties are
 * named, as `grc-sheets binding import` read them from the customer's Swagger file (docs/binding.md).
 */
export const BINDING_FORMAT = 'grc-sheets-binding';
export const BINDING_VERSION = 1;

const template = z.string().refine(isValidTemplate, 'a path is /literal/segments with at most one {guid}');
/** "POST /thirdpartydata/v1/thirdparties": how candidates and picks name an operation of the file. */
export const operationRef = z.string().regex(/^(GET|POST) \/\S*$/, 'expected "METHOD /path"');

export const boundEndpoint = z.object({
  method: z.enum(['GET', 'POST']),
  /** Relative to the environment base URL (which includes the API root), `{guid}` for the parameter. */
  path: template,
  how: z.enum(['exact', 'name', 'shape', 'picked']),
  operationId: z.string().optional(),
  summary: z.string().optional(),
  body: wireShape.optional(),
  record: wireShape.optional(),
  answer: wireShape.optional(),
});
export type BoundEndpoint = z.infer<typeof boundEndpoint>;

export const ambiguousEntry = z.object({
  candidates: z.array(operationRef).min(2),
  pick: operationRef.nullable(),
  /** What the importer would bind each candidate as; lets `boundFor` resolve a pick without a re-import. */
  bound: z.record(z.string(), boundEndpoint).optional(),
});
export type AmbiguousEntry = z.infer<typeof ambiguousEntry>;

export const extraDataset = z.object({
  id: z.string().regex(/^x-[a-z0-9-]+$/, 'an extra dataset id is x-<slug>'),
  path: template,
  title: z.string(),
  operationId: z.string().optional(),
  properties: z.array(z.string()),
});
export type ExtraDataset = z.infer<typeof extraDataset>;

export const binding = z
  .object({
    format: z.literal(BINDING_FORMAT),
    version: z.literal(BINDING_VERSION),
    source: z.object({
      file: z.string(),
      sha256: z.string(),
      spec: z.enum(['swagger-2.0', 'openapi-3.x']),
      title: z.string().optional(),
      apiVersion: z.string().optional(),
      basePath: z.string(),
      importedAt: z.string(),
    }),
    endpoints: z.record(z.string(), boundEndpoint),
    ambiguous: z.record(z.string(), ambiguousEntry),
    missing: z.array(z.string()),
    extraDatasets: z.array(extraDataset),
  })
  .superRefine((b, ctx) => {
    const seen = new Map<string, string>();
    const note = (id: string, where: string) => {
      const before = seen.get(id);
      if (before)
        ctx.addIssue({
          code: 'custom',
          path: [where, id],
          message: `"${id}" is in both ${before} and ${where}`,
        });
      else seen.set(id, where);
    };
    for (const id of Object.keys(b.endpoints)) note(id, 'endpoints');
    for (const id of Object.keys(b.ambiguous)) note(id, 'ambiguous');
    for (const id of b.missing) note(id, 'missing');
    for (const [id, a] of Object.entries(b.ambiguous)) {
      if (a.pick !== null && !a.candidates.includes(a.pick)) {
        ctx.addIssue({
          code: 'custom',
          path: ['ambiguous', id, 'pick'],
          message: `pick "${a.pick}" is not one of the candidates: ${a.candidates.join(', ')}`,
        });
      }
    }
  });
export type Binding = z.infer<typeof binding>;

const splitRef = (ref: string) => {
  const [method, path] = ref.split(' ') as ['GET' | 'POST', string];
  return { method, path };
};

/**
 * The bound endpoint for a catalogue id: from `endpoints`, or an ambiguous one the admin picked (the importer
 * moves a pick into `endpoints` with how 'picked' on re-run; this resolves it before that). Undefined when
 * the id is missing, ambiguous without a pick, or not in the binding.
 */
export function boundFor(b: Binding, id: string): BoundEndpoint | undefined {
  const e = b.endpoints[id];
  if (e) return e;
  const a = b.ambiguous[id];
  if (!a?.pick) return undefined;
  const known = a.bound?.[a.pick];
  return known ? { ...known, how: 'picked' } : { ...splitRef(a.pick), how: 'picked' };
}
