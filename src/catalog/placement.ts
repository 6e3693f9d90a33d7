import { z } from 'zod';

/**
 * Placements: where each catalogue field goes in a customer's request and how its typed value is encoded
 * there. The catalogue says what a field MEANS and how a user types it (a name from a dropdown, a date
 * cell); the customer's API file decides the SHAPE. A bound operation is a method, a path, and one
 * placement per catalogue field the file has room for, plus extra columns for the file's own properties
 * that no catalogue field fills, plus where a create's answer holds the new id. docs/binding.md.
 *
 * The functions that use these (encodeRequest, readCreatedId, decodeRecord, columnsOf) are in encode.ts,
 * answer.ts and decode.ts next to this file; all are pure.
 */

/** RFC 6901 JSON pointer: "" is the whole document, "/incident/reportingOrganisation" a property in it. */
export const jsonPointer = z
  .string()
  .refine((p) => p === '' || p.startsWith('/'), 'a JSON pointer is "" or starts with "/"');

/** How a placement or a choice was made: the importer's matcher, or the admin's overrides file. */
export const PLACEMENT_HOWS = ['exact', 'name', 'synonym', 'shape', 'admin'] as const;
export const placementHow = z.enum(PLACEMENT_HOWS);
export type PlacementHow = z.infer<typeof placementHow>;

/**
 * A standing-data list a name is looked up in: a catalogue dataset id whose records have an id and a
 * name (organizations, users, businessdimensions, frameworkdimensions, incidenttypes,
 * incidentclassifications, riskrootcausecategory, thirdparty, ...).
 */
export const listId = z.string().regex(/^[a-z][a-z0-9-]*$/, 'a list is a catalogue dataset id');

/** What the catalogue's typed value for a reference field is: a name (looked up) or already a GUID. */
const refValue = z.enum(['name', 'guid']);

/** As the value is, with an optional scalar conversion (a file that wants "3" where the catalogue has 3). */
const plainEncoding = z.object({
  kind: z.literal('plain'),
  as: z.enum(['string', 'number', 'integer', 'boolean']).optional(),
  /** The file wants an array: a list goes element by element, a single value as a list of one. */
  many: z.boolean().optional(),
  /** With many: the catalogue holds ONE value (the file's array holds one); read back as that value. */
  single: z.boolean().optional(),
});

/** A name (or a GUID) -> the GUID string, from `list`. Without a list only GUIDs are accepted. */
const guidEncoding = z.object({
  kind: z.literal('guid'),
  list: listId.optional(),
  value: refValue,
  many: z.boolean().optional(),
  single: z.boolean().optional(),
});

/**
 * A name (or a GUID) -> a reference object: `idAt` (pointer inside the object) gets the GUID, `nameAt`
 * the name (at least one of them): {"Guid": g}, {"id": g}, {"Guid": g, "Name": n}, {"ref": {"id": g}}.
 */
const refEncoding = z
  .object({
    kind: z.literal('ref'),
    list: listId.optional(),
    value: refValue,
    idAt: jsonPointer.optional(),
    nameAt: jsonPointer.optional(),
    many: z.boolean().optional(),
    single: z.boolean().optional(),
  })
  .refine((e) => e.idAt !== undefined || e.nameAt !== undefined, 'a ref encoding has idAt or nameAt');

/**
 * A date pattern as .NET and Java write them ("dd-MM-yyyy", "dd/MM/yyyy HH:mm", "yyyy-MM-dd'T'HH:mm:ss"):
 * yyyy, yy, MM, M, dd, d, HH, H, mm, ss, fff; quoted text and other characters as they are (catalog/date-pattern.ts).
 */
export const datePattern = z
  .string()
  .min(2)
  .refine((p) => /yy/.test(p) && /M/.test(p) && /d/.test(p), 'a date pattern has a year (yyyy), a month (MM) and a day (dd)');

/**
 * An ISO date (yyyy-mm-dd, or a date-time) -> the file's format; `pattern`: the file's own way of writing
 * it, from a property's description ("Date in dd-MM-yyyy format") or the admin's override.
 */
const dateEncoding = z.object({
  kind: z.literal('date'),
  format: z.enum(['date', 'date-time']),
  pattern: datePattern.optional(),
});

/**
 * An enum whose values the file writes as numbers (Swashbuckle's and System.Text.Json's default: 0, 1, 2):
 * `values` and the map's targets hold them as text ("3"); they go out as JSON numbers.
 */
const enumNumbers = z.enum(['integer', 'number']);

/**
 * Catalogue value -> the file's value of the same meaning. `values` is every value the file allows (also
 * those the catalogue lacks: offered in the dropdown, sent as they are); `map` the catalogue spellings the
 * file writes differently ("Months" -> "MONTHS"), and, where the file names its values (a description
 * "0 = None, 1 = Days", x-enumNames, x-enum-varnames, x-ms-enum), every name -> its value ("Months" -> "3",
 * "Years" -> "4"): the names are what users pick. `as`: the file's values are numbers.
 */
const enumEncoding = z.object({
  kind: z.literal('enum'),
  values: z.array(z.string()),
  map: z.record(z.string(), z.string()),
  as: enumNumbers.optional(),
  many: z.boolean().optional(),
  single: z.boolean().optional(),
});

/**
 * A number and its unit (two catalogue fields: the placement's field and `unitField`) joined into one
 * property of the file: "3 Months" (text), {"value": 3, "unit": "MONTHS"} (object, `valueAt`/`unitAt`),
 * or an ISO 8601 duration "P3M" (iso-duration). `units`: catalogue unit (or a unit only the file has, by its
 * name) -> the file's value. The unit
 * field has no placement of its own; it lands here.
 */
const numberUnitEncoding = z.object({
  kind: z.literal('number-unit'),
  unitField: z.string(),
  style: z.enum(['text', 'object', 'iso-duration']),
  valueAt: jsonPointer.optional(),
  unitAt: jsonPointer.optional(),
  units: z.record(z.string(), z.string()),
  /** The file's units are numbers (an integer enum): `units` holds them as text, they go out as numbers. */
  unitAs: enumNumbers.optional(),
});

/**
 * Custom field answers (the catalogue's [{CustomFieldGuid, Value | DateValue}], a multi-select one entry per
 * chosen option) in the file's shape: `entries`: an array of objects, the field's GUID at `guidAt`
 * ("/customFieldId", "/field/Guid"), the value at `valueAt`, a date at `dateAt` (absent: at `valueAt` too);
 * `map`: one object keyed by the field's GUID. `valueAs: 'string'`: the file wants every value as a string.
 *
 * `multi`, how the answers of one field go (a multi-select's options): `array`, one entry (or map value)
 * whose value is an array of them, every answer of such a slot an array (`Values: [string]`); `list`, the
 * same where the slot takes one value or a list (`str | list[str]`): one answer as it is; `join`, one
 * value, the options joined with `separator` (default "; "); `repeat`, one entry per option (never for a
 * map, and only where the file allows it: the spec rejects duplicate entries for third parties). Absent:
 * as the catalogue has them (entries repeated, a map's one value). Never lossy: a field with several
 * answers the shape cannot hold is a problem naming it.
 * `options`: a select's answer as its option's `name` (looked up in `optionsList`, the custom field
 * definitions dataset) or its `guid` (the default). `dateFormat`/`datePattern`: a date answer as a
 * date-time or in the file's own pattern.
 */
export const CUSTOM_FIELD_MULTI = ['array', 'list', 'join', 'repeat'] as const;
export const DEFAULT_SEPARATOR = '; ';
const customFieldsEncoding = z.object({
  kind: z.literal('custom-fields'),
  style: z.enum(['entries', 'map']),
  guidAt: jsonPointer.optional(),
  valueAt: jsonPointer.optional(),
  dateAt: jsonPointer.optional(),
  valueAs: z.enum(['string', 'any']).optional(),
  multi: z.enum(CUSTOM_FIELD_MULTI).optional(),
  separator: z.string().min(1).optional(),
  options: z.enum(['name', 'guid']).optional(),
  optionsList: listId.optional(),
  dateFormat: z.enum(['date', 'date-time']).optional(),
  datePattern: datePattern.optional(),
});

/**
 * A document's content (the catalogue's base64 text) as a file part of a multipart form, its file name
 * from the catalogue field `nameField` (which has no placement of its own: it lands here).
 */
const fileEncoding = z.object({ kind: z.literal('file'), nameField: z.string() });

/** A file part as an encoded body holds it, before the client makes it a part of a multipart form. */
export interface FilePart {
  filename: string;
  base64: string;
}

export type Encoding =
  | z.infer<typeof plainEncoding>
  | z.infer<typeof guidEncoding>
  | z.infer<typeof refEncoding>
  | z.infer<typeof dateEncoding>
  | z.infer<typeof enumEncoding>
  | z.infer<typeof numberUnitEncoding>
  | z.infer<typeof customFieldsEncoding>
  | z.infer<typeof fileEncoding>
  | { kind: 'objects'; fields: SubPlacement[] };

/** One field of an entry of a catalogue list of objects (a task's Hyperlinks: Url, Description). */
export interface SubPlacement {
  field: string;
  at: string;
  fileName: string;
  encoding: Encoding;
}

const subPlacement: z.ZodType<SubPlacement> = z.lazy(() =>
  z.object({ field: z.string(), at: jsonPointer, fileName: z.string(), encoding }),
);

/** A catalogue list of objects whose entries the file names its own way: each entry by `fields`. */
const objectsEncoding = z.object({ kind: z.literal('objects'), fields: z.array(subPlacement) });

export const encoding: z.ZodType<Encoding> = z.lazy(() =>
  z.union([
    plainEncoding,
    guidEncoding,
    refEncoding,
    dateEncoding,
    enumEncoding,
    numberUnitEncoding,
    customFieldsEncoding,
    fileEncoding,
    objectsEncoding,
  ]),
);
export type EncodingKind = Encoding['kind'];

/** The catalogue's own path parameter (the `{guid}` of /incidents/{guid}/hyperlink) as a placement field. */
export const PATH_GUID_FIELD = '{guid}';

export const placement = z.object({
  /** A catalogue body (or record) field, e.g. "ReportingOrganization"; or PATH_GUID_FIELD. */
  field: z.string().min(1),
  in: z.enum(['body', 'path', 'query']),
  /** body: a JSON pointer into the body (or the record); path, query: the file's parameter name. */
  at: z.string(),
  /** The file's own name for it (last pointer segment, or the parameter name): what reports show. */
  fileName: z.string(),
  encoding,
  how: placementHow,
  /** The file requires it (a required property, or a path parameter). */
  required: z.boolean().optional(),
  /** The file's property takes null (nullable, x-nullable, a type with null): a full update may send null for "none". */
  nullable: z.boolean().optional(),
});
export type Placement = z.infer<typeof placement>;

/**
 * A property or parameter of the file that no catalogue field fills: a template column of its own,
 * typed from the file's schema. Its cell value comes in `values` under `key`.
 */
export const extraColumn = z.object({
  /** `${in}:${at}`, e.g. "body:/severity", "path:orgId", "query:notify": the key of its value. */
  key: z.string(),
  /** The column header: the file's name, with what to type where that is not obvious ("regulator (GUID)"). */
  header: z.string(),
  in: z.enum(['body', 'path', 'query']),
  at: z.string(),
  fileName: z.string(),
  /** The cell: text, a number, a yes/no, a date, a GUID, a name looked up in `list`. */
  cell: z.enum(['text', 'number', 'integer', 'boolean', 'date', 'date-time', 'guid', 'name']),
  /** The file's enum: a dropdown. */
  values: z.array(z.string()).optional(),
  /** A 'name' cell: the standing data list the name is looked up in. */
  list: listId.optional(),
  /** Several values (a list cell). */
  many: z.boolean().optional(),
  /** How the cell's value is encoded (a reference object, the file's date format, ...). */
  encoding,
  required: z.boolean(),
  /** The file's default: sent when the cell is blank. */
  default: z.unknown().optional(),
  description: z.string().optional(),
});
export type ExtraColumn = z.infer<typeof extraColumn>;

/**
 * Where a create's answer holds the new record's id: a pointer into the answer body (through any
 * envelope: "/data/guid", "/Guid"; "" for a bare GUID body), or the Location header (its last GUID-like
 * segment).
 */
export const answerPlacement = z.discriminatedUnion('in', [
  z.object({ in: z.literal('body'), at: jsonPointer }),
  z.object({ in: z.literal('header'), at: z.literal('location') }),
]);
export type AnswerPlacement = z.infer<typeof answerPlacement>;

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH'] as const;
export const httpMethod = z.enum(HTTP_METHODS);
export type HttpMethod = z.infer<typeof httpMethod>;

/** Where the bound operation is in the customer's file, in the file's words (for reports and notices). */
export const fileOperation = z.object({
  operationId: z.string().optional(),
  summary: z.string().optional(),
  deprecated: z.boolean().optional(),
  /** The path as the file writes it (base path included). */
  path: z.string(),
  /** JSON pointer of the operation in the file: "#/paths/~1incidents/post". */
  pointer: z.string(),
});
export type FileOperationRef = z.infer<typeof fileOperation>;

/**
 * A path template relative to the environment base URL: literal segments and `{name}` parameters (the
 * file's own names), any number of them.
 */
export const pathTemplate = z
  .string()
  .regex(
    /^(\/([A-Za-z0-9_.~-]+|[A-Za-z0-9_.~-]*\{[A-Za-z0-9_.-]+\}[A-Za-z0-9_.~-]*)(:[A-Za-z0-9_.~-]+)?)+$|^\/$/,
    'a path is /literal/segments and {name} parameters, one per segment (v{version}, a custom method: {name}:verb)',
  );

/**
 * A body the file takes as a form, not JSON: `urlencoded` (application/x-www-form-urlencoded) or `multipart`
 * (multipart/form-data). Body placements then sit at `/<form field>`, one segment; a list goes as the field
 * repeated, a file as a file part.
 */
export const FORM_MEDIA = ['urlencoded', 'multipart'] as const;
export const formMedia = z.enum(FORM_MEDIA);
export type FormMedia = z.infer<typeof formMedia>;

export const boundOperation = z.object({
  kind: z.literal('operation'),
  method: httpMethod,
  path: pathTemplate,
  file: fileOperation,
  how: placementHow,
  /** Absent: a JSON body. */
  form: formMedia.optional(),
  placements: z.array(placement),
  extras: z.array(extraColumn),
  /** null: the operation creates nothing whose id the write-back needs (updates, status changes). */
  answer: answerPlacement.nullable(),
  /**
   * Catalogue fields of a full update the admin declared safe to omit (overrides `omit`): the service keeps
   * a field the request leaves out. A blank cell whose current value the environment cannot show is then
   * left out of the request, instead of the row being refused (a full update must not guess it).
   */
  omit: z.array(z.string()).optional(),
});
export type BoundOperation = z.infer<typeof boundOperation>;

export const boundDataset = z.object({
  kind: z.literal('dataset'),
  method: z.literal('GET'),
  path: pathTemplate,
  file: fileOperation,
  how: placementHow,
  /** Record fields (in 'body': a pointer into one record), and path/query parameters. */
  placements: z.array(placement),
  /** Where the array of records is in the answer: "" for a bare array, "/data" for {"data": [...]}. */
  records: jsonPointer,
});
export type BoundDataset = z.infer<typeof boundDataset>;

export const boundEndpoint = z.discriminatedUnion('kind', [boundOperation, boundDataset]);
export type BoundEndpoint = z.infer<typeof boundEndpoint>;

/** A looked-up name: its GUID and its name as the list spells it; or why it could not be. */
export type NameLookup =
  | { ok: true; id: string; name: string }
  | { ok: false; code: 'unknown-name' | 'ambiguous-name'; message: string };

/**
 * One standing-data list as the encoder reads it. The write-back passes its own (its rules for deleted
 * users and the like); `indexList` (encode.ts) makes one from plain {id, name} entries.
 */
export interface NameIndex {
  resolve(name: string): NameLookup;
  nameOf(id: string): string | undefined;
}

/** The lists an encode may look names up in, by list id; a missing list makes names there a problem. */
export type Lists = Readonly<Record<string, NameIndex | undefined>>;

/** A value that could not be placed: the field (catalogue field or extra key), a code and a fix. */
export interface EncodeProblem {
  /** The field, as a value: the words in `message` do not repeat it (a cell's problem names its column instead). */
  field: string;
  code:
    | 'not-placed'
    | 'unknown-name'
    | 'ambiguous-name'
    | 'no-list'
    | 'not-a-guid'
    | 'bad-date'
    | 'not-in-list'
    | 'bad-number'
    | 'one-value'
    | 'required'
    | 'bad-value';
  message: string;
}

/** The request as it goes out: path filled (parameters percent-encoded), relative to the base URL. */
export interface EncodedRequest {
  method: HttpMethod;
  path: string;
  query: [string, string][];
  /** Absent: no body is sent. */
  body?: unknown;
  /** The body goes as this kind of form (its top-level members are the form's fields), not as JSON. */
  form?: FormMedia;
}

export type EncodeResult = { ok: true; request: EncodedRequest } | { ok: false; problems: EncodeProblem[] };

/** What readCreatedId reads: the answer's status, its headers (lower-case names) and its parsed body. */
export interface Answer {
  status: number;
  headers: Readonly<Record<string, string | undefined>>;
  /** Parsed JSON, or the text when it is not JSON, or undefined when empty. */
  body: unknown;
  /**
   * Lower-case hex SHA-256 of the body bytes the client sent (of no bytes when it sent none): what the
   * relay's write receipt signs as `bodySha256`, and what the write-back audit row keeps. Absent where the
   * answer was not made by the client's send.
   */
  sentSha256?: string;
  /** The client's fresh reference of this write, sent to the relay (contracts WRITE_REF_HEADER), which signs it in the receipt. */
  writeRef?: string;
}

/** One write as the client sent it, known before any answer (so kept even when none comes): its body's hash and reference. */
export interface SentWrite {
  sha256: string;
  ref: string;
}

export type CreatedId = { ok: true; id: string; from: string } | { ok: false; message: string };
