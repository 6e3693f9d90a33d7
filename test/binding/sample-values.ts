import { toJsonSchema, type JsonSchema, type Operation } from '../../src/catalog';

const G = '16fd2706-8baf-433b-82eb-8c7fada847da';

function sample(name: string, js: JsonSchema): unknown {
  const inner = js.anyOf?.find((a) => a.type !== 'null') ?? js;
  if (Array.isArray(inner.enum)) return inner.enum[0];
  if (inner.format === 'uuid') return G;
  if (inner.format === 'date') return '2026-01-02';
  switch (inner.type) {
    case 'number':
    case 'integer':
      return 2;
    case 'boolean':
      return true;
    case 'array':
      return [sample(name, inner.items ?? {})];
    case 'object':
      return Object.fromEntries(
        Object.entries(inner.properties ?? {})
          .filter(([k]) => k !== 'DateValue')
          .map(([k, v]) => [k, sample(k, v)]),
      );
    default:
      return inner.type === 'string' || !inner.anyOf ? `${name} value` : 'v';
  }
}

/** A value for every field of an operation's body (and its path GUID): what a full row gives. */
export function sampleValues(op: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = op.path.includes('{guid}') ? { '{guid}': G } : {};
  if (!op.body) return out;
  const js = toJsonSchema(op.body);
  for (const [k, v] of Object.entries(js.properties ?? {})) out[k] = sample(k, v);
  return out;
}
