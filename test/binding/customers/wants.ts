/**
 * What a customer file wants, written from reading the file and its generator's conventions (never from the
 * importer): for each flow, the operation of the file its write must go to, and for each template column
 * where the typed value goes in the request and how it is encoded. Same idea as ../corpus/wants.ts (column ->
 * JSON pointer; `*` stands for every entry of an array; several pointers are alternatives; 'path' means the
 * named record's GUID is in the request path), with what these files add: integer or string enums by
 * meaning, date formats, form bodies, custom fields as a map or as entries with multi-select answers as an
 * array, repeated entries or joined text, select answers by option name or option GUID.
 */

/** A date as the file wants it: ISO date, ISO date-time, or a .NET-style pattern from a description. */
export type DateWant = 'date' | 'date-time' | 'dd-MM-yyyy' | 'dd/MM/yyyy';

export interface ColumnWant {
  at: string | string[];
  /** Typed text -> the value on the wire (an integer for an integer enum, the file's string otherwise). */
  enum?: Record<string, string | number>;
  date?: DateWant;
  /** A number column the file types as an integer (sent as a JSON number, not text). */
  number?: true;
}

export type Place = string | string[] | ColumnWant;

export interface CustomFieldsWant {
  /** entries: an array of {guid, value[, date]} objects; map: an object keyed by the field's GUID. */
  shape: 'entries' | 'map';
  at: string;
  /** entries: where the field's GUID, the value and (if separate) the date value go inside an entry. */
  guid?: string;
  value?: string;
  date?: string;
  /** How a multi-select answer of several options goes: one array, one entry per option, or joined text. */
  multi: 'array' | 'repeated' | 'joined';
  separator?: string;
  /** Dropdown and multi-select answers: the option's name or the option's GUID. */
  select: 'name' | 'guid';
  /** Date answers. */
  dates: DateWant;
  /** Every value sits in an array (e.g. `values: [string]`), single answers as one-element arrays. */
  alwaysArray?: true;
}

export interface FlowWants {
  /** The file's operation the flow writes with: "METHOD /path" as the file spells it. */
  operation: string;
  /**
   * The request path the sandbox must see (a regular expression), where the operation's path alone does not say
   * it: a path parameter the flow does not fill (an API version with a default) must have the value the file gives.
   * Matched against the path the sandbox saw, which is below the API root (a leading /api may be gone).
   */
  pathLike?: string;
  /** Form body (application/x-www-form-urlencoded or multipart): pointers name form fields. */
  form?: true;
  columns: Record<string, Place>;
  customFields?: CustomFieldsWant;
}

export interface FileWants {
  /** How the file was written: generator, spec version, and choices the writer made. */
  about: string;
  incidents: FlowWants & { hyperlink: FlowWants };
  thirdparties: FlowWants;
  contracts: FlowWants;
  /** The v2 full update (never the v1 update that submits). */
  taskUpdate: FlowWants;
  taskScoreStatus: FlowWants;
  taskAdvance: { operation: string; pathLike?: string };
  /** Catalogue dataset or operation id -> "METHOD /path" of the file that it must be bound to. */
  bound: Record<string, string>;
  /** Operations of the file that must never be bound to anything (look-alikes). */
  neverBound: string[];
}
