/**
 * The checks of customers.test.ts the product does not pass yet, each with the reason seen. One place, so the
 * list of what fails is explicit: a check named here must still fail (the test says so when it starts to pass:
 * then remove its line); a check not named here must pass. Keys are `<file> › <check>`.
 * The details (file, flow, column, what the wants say, what happened) are in /work/coord/notes-outside.md.
 * "then (forecast with h/enums)" / "passes with h/enums": what the same test showed on a scratch merge of this branch
 * with h/doors and h/enums as committed at 15:20; "passes with h/available" / "h/fullupdate": this branch merged with
 * that one alone (the branches did not all merge cleanly together).
 */
export const KNOWN_GAPS: Record<string, string> = {
  // tyrell.swashbuckle.json: integer enums: the bound sandbox does not start (zod: Cannot overwrite keys on object schemas containing refinements; use .safeExtend())
  'tyrell.swashbuckle.json › documented datasets':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) auditseverity refused: not in the file',
  'tyrell.swashbuckle.json › incidents':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.4.dateValue: not a valid date-time (a date sent where the file says date-time)',
  'tyrell.swashbuckle.json › thirdparties':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.N.values: must be array (entries {customFieldId, values: [string]})',
  'tyrell.swashbuckle.json › contracts':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.N.values: must be array',
  // nakatomi.nswag.json: integer enums (x-enumNames): the bound sandbox does not start (zod: Cannot overwrite keys on object schemas containing refinements)
  'nakatomi.nswag.json › documented datasets':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 4 documented DirectData datasets the file does not list are refused',
  'nakatomi.nswag.json › incidents':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.4.dateValue: not a valid date-time',
  'nakatomi.nswag.json › thirdparties':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) the GUID given to the row is "x" (bare format: guid answer misread) [forms: the options of a multi-select now go joined in one text value, as the brief of the lead says: never one entry per option for third parties and contracts (the spec rejects duplicate entries), although this file asks for one entry per option]',
  'nakatomi.nswag.json › contracts':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) the GUID given to the row is "x" (bare format: guid answer misread) [forms: the options of a multi-select now go joined in one text value, as the brief of the lead says: never one entry per option for third parties and contracts (the spec rejects duplicate entries), although this file asks for one entry per option]',
  // duff.swagger.yaml: YAML merge keys (<<: *guid) not resolved: import refused, exit 2, 'must NOT have additional properties' x 457, merge keys not named
  'duff.swagger.yaml › documented datasets':
    'YAML merge keys not read: import refused (exit 2); then (forecast with h/enums) documented DirectData datasets the file does not list are refused',
  // monarch.aspnet11.json: OpenAPI 3.2.0 refused: 'Unsupported OpenAPI version: 3.2.0', exit 2
  'monarch.aspnet11.json › documented datasets':
    'OpenAPI 3.2.0 refused by the parser (exit 2); then (forecast with h/enums) documented DirectData datasets the file does not list are refused',
  'monarch.aspnet11.json › incidents':
    'OpenAPI 3.2.0 refused by the parser (exit 2); then (forecast with h/enums) as monarch10: row GUID not the record made, hyperlink 404, select answers as GUIDs',
  'monarch.aspnet11.json › thirdparties':
    'OpenAPI 3.2.0 refused by the parser (exit 2); then (forecast with h/enums) as monarch10 [forms: the options of a multi-select now go joined in one text value, as the brief of the lead says: never one entry per option for third parties and contracts (the spec rejects duplicate entries), although this file asks for one entry per option]',
  'monarch.aspnet11.json › contracts':
    'OpenAPI 3.2.0 refused by the parser (exit 2); then (forecast with h/enums) as monarch10 [forms: the options of a multi-select now go joined in one text value, as the brief of the lead says: never one entry per option for third parties and contracts (the spec rejects duplicate entries), although this file asks for one entry per option]',
  // wayne.swashbuckle-strings.json: /api/v{version}/... paths (asp-versioning, version as a path parameter with a default) are 'a path grc-sheets cannot address': nothing bound
  'wayne.swashbuckle-strings.json › incidents':
    'v{version} paths not addressable: 0 writes and 0 lists bound; then (forecast with h/enums) 400 customFieldValues.<id>: must be string (Dictionary<Guid, string>)',
  'wayne.swashbuckle-strings.json › thirdparties':
    'v{version} paths not addressable: 0 writes and 0 lists bound; then (forecast with h/enums) 400 customFieldValues.<id>: must be array (Dictionary<Guid, string[]>)',
  'wayne.swashbuckle-strings.json › contracts':
    'v{version} paths not addressable: 0 writes and 0 lists bound; then (forecast with h/enums) 400 customFieldValues.<id>: must be array (Dictionary<Guid, string[]>)',
  // umbrella.swashbuckle-v2.json: integer enums (x-enum-varnames): the bound sandbox does not start
  'umbrella.swashbuckle-v2.json › documented datasets':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) documented DirectData datasets the file does not list are refused',
  'umbrella.swashbuckle-v2.json › incidents':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) refused on Name (required) although typed: the name of the wrongly bound MOI step',
  'umbrella.swashbuckle-v2.json › thirdparties':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.4.dateValue: not a valid date-time [forms: the options of a multi-select now go joined in one text value, as the brief of the lead says: never one entry per option for third parties and contracts (the spec rejects duplicate entries), although this file asks for one entry per option]',
  'umbrella.swashbuckle-v2.json › contracts':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) bare-uuid answer: the GUID given to the row is not the record made; select answers sent as GUIDs where the description says names [forms: the options of a multi-select now go joined in one text value, as the brief of the lead says: never one entry per option for third parties and contracts (the spec rejects duplicate entries), although this file asks for one entry per option]',
  'umbrella.swashbuckle-v2.json › task full update keeps values':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) a comment-only update sends score: null, 400 (score is not nullable in the file)',
  // oscorp.swashbuckle-autorest.json: integer enums (x-ms-enum): the bound sandbox does not start
  'oscorp.swashbuckle-autorest.json › documented datasets':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) documented DirectData datasets the file does not list are refused',
  'oscorp.swashbuckle-autorest.json › incidents':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.4.dateValue: not a valid date-time',
  'oscorp.swashbuckle-autorest.json › thirdparties':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.4.dateValue: not a valid date-time [forms: the options of a multi-select now go joined in one text value, as the brief of the lead says: never one entry per option for third parties and contracts (the spec rejects duplicate entries), although this file asks for one entry per option]',
  'oscorp.swashbuckle-autorest.json › contracts':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) bare-uuid answer: the GUID given to the row is not the record made; select answers sent as GUIDs where the description says names [forms: the options of a multi-select now go joined in one text value, as the brief of the lead says: never one entry per option for third parties and contracts (the spec rejects duplicate entries), although this file asks for one entry per option]',
  'oscorp.swashbuckle-autorest.json › task full update keeps values':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) a comment-only update sends score: null, 400 (score is not nullable in the file)',
  // Files that import and run: the checks that find something
  'gekko.springdoc.json › incidents':
    'dimension lists not bound: rows refused no-list on Business and Framework dimensions',
  'gekko.springdoc.json › thirdparties': 'framework dimensions list not bound: refused no-list',
  'gekko.springdoc.json › contracts':
    "bare-uuid answer: the row's GUID is not the record made; dropdown sent as option GUID (wants name), multi-select as two GUID entries (wants 'EU|US')",
  'gekko.springdoc.json › task full update keeps values':
    "comment-only Update sends score: null where the file's score is a plain number: 400; passes with h/fullupdate",
  'monarch.aspnet10.json › incidents':
    "201 + bare uuid: the row's GUID is not the record made, the hyperlink then 404s; dropdown/multi-select sent as option GUIDs where the description says names",
  'monarch.aspnet10.json › thirdparties':
    "201 + bare uuid: the row's GUID is not the record made; select answers sent as GUIDs where the description says names [forms: the options of a multi-select now go joined in one text value, as the brief of the lead says: never one entry per option for third parties and contracts (the spec rejects duplicate entries), although this file asks for one entry per option]",
  'monarch.aspnet10.json › contracts':
    "201 + bare uuid: the row's GUID is not the record made; select answers sent as GUIDs where the description says names [forms: the options of a multi-select now go joined in one text value, as the brief of the lead says: never one entry per option for third parties and contracts (the spec rejects duplicate entries), although this file asks for one entry per option]",
  'wayne.swashbuckle-strings.json › documented datasets':
    'documented DirectData datasets the file does not list are refused: not available on this environment (no operation of the file fits)',
  'gekko.springdoc.json › documented datasets':
    'documented DirectData datasets the file does not list are refused: not available on this environment (no operation of the file fits); passes with h/available',
  'prestige.fastapi.json › documented datasets':
    'documented DirectData datasets the file does not list are refused: not available on this environment (no operation of the file fits); passes with h/available',
  'monarch.aspnet10.json › documented datasets':
    'documented DirectData datasets the file does not list are refused: not available on this environment (no operation of the file fits); passes with h/available',
};
