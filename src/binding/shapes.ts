import type { ExtraProperty, JsonSchema, WireShape } from '../catalog';

/**
 * Maps a catalogue schema (bodies, records, answers) onto the file's schema: catalogue field -> property path,
 * with the file's required properties, enums and formats, and the differences that matter.
 *
 * Names match case-insensitively and ignoring `_`/`-` (PascalCase, camelCase, snake_case), then by their base
 * (without a Guid/Id suffix and a plural s): `ThirdPartyGuid` finds `thirdParty`. A scalar field that meets an
 * object is a reference object: the path goes to its Guid/Id property (GUID fields) or its Name (name fields),
 * e.g. `RootCauseCategory` -> `rootCauseCategory.guid`. A list of scalars that meets an array of objects maps to
 * `Organizations[].Guid`; a list of objects (custom field entries) maps entry by entry: `{ path, items }`.
 */

export type DifferenceKind = 'required-unfilled' | 'format' | 'type' | 'enum' | 'not-in-file';
export interface Difference {
  kind: DifferenceKind;
  field?: string;
  property?: string;
  message: string;
}

export interface ShapeMatch {
  shape: WireShape;
  /** 0..1: how much of the two property sets matched (for matching operations by shape). */
  score: number;
  differences: Difference[];
}

export const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
export function base(s: string): string {
  let n = norm(s);
  const stripped = n.replace(/(guids|guid|uuids|uuid|ids|id)$/, '');
  if (stripped.length >= 3) n = stripped;
  if (n.endsWith('ies') && n.length > 4) n = n.slice(0, -3) + 'y';
  else if (n.endsWith('s') && n.length > 3) n = n.slice(0, -1);
  return n;
}

/** Merges allOf and unwraps an array answer to its item (a dataset answers with an array of records). */
export function objectSchema(js: JsonSchema | undefined, depth = 0): JsonSchema | undefined {
  if (!js || depth > 8) return undefined;
  if (Array.isArray(js.allOf)) {
    const parts = (js.allOf as JsonSchema[])
      .map((p) => objectSchema(p, depth + 1))
      .filter((p): p is JsonSchema => !!p);
    return {
      type: 'object',
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {}), js.properties ?? {}),
      required: [...new Set(parts.flatMap((p) => p.required ?? []).concat(js.required ?? []))],
    };
  }
  if (js.properties || js.type === 'object') return js;
  if (js.type === 'array') return objectSchema(js.items, depth + 1);
  return undefined;
}

const typeOf = (js: JsonSchema | undefined): string | undefined => {
  if (!js) return undefined;
  if (typeof js.type === 'string') return js.type === 'integer' ? 'number' : js.type;
  if (js.properties || js.allOf) return 'object';
  return undefined;
};
const formatOf = (js: JsonSchema | undefined): string | undefined =>
  typeof js?.format === 'string'
    ? js.format
    : typeof js?.items?.format === 'string'
      ? js.items.format
      : undefined;
const isGuidFormat = (f: string | undefined) => f === 'uuid' || f === 'guid';

/** The property of a reference object that carries the value: its GUID for GUID fields, its name otherwise. */
function innerKey(obj: JsonSchema, wantGuid: boolean): string | undefined {
  const keys = Object.keys(obj.properties ?? {});
  const find = (names: string[]) => keys.find((k) => names.includes(norm(k)));
  const guid = find(['guid', 'id', 'uuid']);
  const name = find(['name', 'title', 'value']);
  return wantGuid ? (guid ?? name ?? keys[0]) : (name ?? guid ?? keys[0]);
}

function findProperty(
  field: string,
  props: Record<string, JsonSchema>,
  used: Set<string>,
): string | undefined {
  const keys = Object.keys(props).filter((k) => !used.has(k));
  return keys.find((k) => norm(k) === norm(field)) ?? keys.find((k) => base(k) === base(field));
}

export function mapShape(
  catalogue: JsonSchema,
  file: JsonSchema | undefined,
  role: 'body' | 'record' | 'answer',
  depth = 0,
): ShapeMatch {
  const cat = objectSchema(catalogue) ?? { properties: {} };
  const fil = objectSchema(file) ?? { properties: {} };
  const catProps = cat.properties ?? {};
  const fileProps = fil.properties ?? {};
  const fileRequired = new Set(fil.required ?? []);
  const shape: WireShape = { properties: {}, required: [], enums: {}, formats: {} };
  const differences: Difference[] = [];
  const used = new Set<string>();
  const requirePath = (p: string) => {
    if (!shape.required.includes(p)) shape.required.push(p);
  };

  for (const [field, c] of Object.entries(catProps)) {
    const key = findProperty(field, fileProps, used);
    if (!key) {
      differences.push({
        kind: 'not-in-file',
        field,
        message:
          role === 'body'
            ? `${field}: the file has no such property; the value is not sent`
            : `${field}: the file has no such property; the column stays empty`,
      });
      continue;
    }
    used.add(key);
    if (fileRequired.has(key)) requirePath(key);
    const f = fileProps[key]!;
    const fObj = typeOf(f) === 'array' ? undefined : objectSchema(f);
    const fItems = typeOf(f) === 'array' ? objectSchema(f.items) : undefined;
    const cType = typeOf(c);
    const cFormat = formatOf(c);
    const cItemsObj = cType === 'array' ? objectSchema(c.items) : undefined;
    let leaf: JsonSchema = f;
    let path = key;
    if (cType !== 'object' && fObj && fObj.properties && Object.keys(fObj.properties).length) {
      const inner = innerKey(fObj, isGuidFormat(cFormat) || /(guid|id)s?$/i.test(field));
      if (inner) {
        path = `${key}.${inner}`;
        leaf = fObj.properties[inner]!;
        if (fObj.required?.includes(inner)) requirePath(path);
      }
    } else if (fItems && fItems.properties && Object.keys(fItems.properties).length) {
      if (cItemsObj && depth < 4) {
        const inner = mapShape(cItemsObj, fItems, role, depth + 1);
        shape.properties[field] = { path: key, items: inner.shape };
        for (const r of inner.shape.required) requirePath(`${key}[].${r}`);
        differences.push(...inner.differences.map((d) => ({ ...d, message: `${field}[]: ${d.message}` })));
        continue;
      }
      if (cType === 'array') {
        const inner = innerKey(fItems, isGuidFormat(cFormat) || /(guid|id)s$/i.test(field));
        if (inner) {
          path = `${key}[].${inner}`;
          leaf = { ...fItems.properties[inner]!, type: 'array', items: fItems.properties[inner]! };
          if (fItems.required?.includes(inner)) requirePath(path);
        }
      }
    }
    shape.properties[field] = path;

    const fFormat = formatOf(leaf);
    if (fFormat) shape.formats[field] = fFormat;
    if (isGuidFormat(fFormat) && !isGuidFormat(cFormat) && (cType === 'string' || cType === 'array')) {
      differences.push({
        kind: 'format',
        field,
        property: path,
        message: `${field}: the file wants a GUID at ${path}; the catalogue has a name there`,
      });
    } else if (isGuidFormat(cFormat) && fFormat && !isGuidFormat(fFormat)) {
      differences.push({
        kind: 'format',
        field,
        property: path,
        message: `${field}: the catalogue has a GUID; the file's ${path} is ${fFormat}`,
      });
    } else if (
      cFormat &&
      fFormat &&
      cFormat !== fFormat &&
      !(isGuidFormat(cFormat) && isGuidFormat(fFormat))
    ) {
      differences.push({
        kind: 'format',
        field,
        property: path,
        message: `${field}: ${cFormat} in the catalogue, ${fFormat} in the file (${path})`,
      });
    }
    const fType = typeOf(leaf);
    if (cType && fType && cType !== fType && !(cType === 'array' && path.includes('[]'))) {
      differences.push({
        kind: 'type',
        field,
        property: path,
        message: `${field}: ${cType} in the catalogue, ${fType} in the file (${path})`,
      });
    }
    const fEnum = (
      Array.isArray(leaf.enum) ? leaf.enum : Array.isArray(leaf.items?.enum) ? leaf.items.enum : undefined
    )?.map(String);
    if (fEnum) {
      const cEnum = (Array.isArray(c.enum) ? c.enum : []).map(String);
      const entry: { values: string[]; map?: Record<string, string> } = { values: fEnum };
      const map: Record<string, string> = {};
      for (const v of cEnum) {
        const w = fEnum.find((x) => norm(x) === norm(v));
        if (w && w !== v) map[v] = w;
      }
      if (Object.keys(map).length) entry.map = map;
      shape.enums[field] = entry;
      if (cEnum.length) {
        const lacking = fEnum.filter((w) => !cEnum.some((v) => norm(v) === norm(w)));
        const refused = cEnum.filter((v) => !fEnum.some((w) => norm(v) === norm(w)));
        if (lacking.length) {
          differences.push({
            kind: 'enum',
            field,
            property: path,
            message: `${field}: the file allows ${lacking.join(', ')}, which the template's dropdown lacks`,
          });
        }
        if (refused.length) {
          differences.push({
            kind: 'enum',
            field,
            property: path,
            message: `${field}: the template's dropdown offers ${refused.join(', ')}, which the file does not allow`,
          });
        }
      }
    }
  }

  if (role === 'body') {
    const extra: ExtraProperty[] = [];
    for (const r of fileRequired) {
      if (used.has(r) || !fileProps[r]) continue;
      const p = fileProps[r];
      const e: ExtraProperty = { name: r, type: typeOf(p) ?? 'string' };
      if (formatOf(p)) e.format = formatOf(p)!;
      if (Array.isArray(p.enum)) e.enum = p.enum.map(String);
      if (p.default !== undefined) e.default = p.default;
      if (typeof p.description === 'string') e.description = p.description;
      extra.push(e);
      requirePath(r);
      differences.push({
        kind: 'required-unfilled',
        property: r,
        message: `${r}: the file requires it and no catalogue field fills it (the template gains a column for it${e.enum ? `: ${e.enum.join(', ')}` : ''})`,
      });
    }
    if (extra.length) shape.extra = extra;
  }

  const catCount = Object.keys(catProps).length;
  const fileCount = Object.keys(fileProps).length;
  const mapped = used.size;
  const score = catCount + fileCount === 0 ? 1 : mapped / (catCount + fileCount - mapped);
  return { shape, score, differences };
}
