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
  'tyrell.swashbuckle.json › import':
    'integer enums: the bound sandbox does not start (safeExtend); starts with h/enums',
  'tyrell.swashbuckle.json › documented datasets':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) auditseverity refused: not in the file',
  'tyrell.swashbuckle.json › bindings':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) incident-document bound to .../restore by shape; datastructure not bound to /api/v1/datamanagement/structures',
  'tyrell.swashbuckle.json › incidents':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.4.dateValue: not a valid date-time (a date sent where the file says date-time)',
  'tyrell.swashbuckle.json › thirdparties':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.N.values: must be array (entries {customFieldId, values: [string]})',
  'tyrell.swashbuckle.json › contracts':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.N.values: must be array',
  'tyrell.swashbuckle.json › task update':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'tyrell.swashbuckle.json › task score and status':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'tyrell.swashbuckle.json › task advance':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'tyrell.swashbuckle.json › task full update keeps values':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  // nakatomi.nswag.json: integer enums (x-enumNames): the bound sandbox does not start (zod: Cannot overwrite keys on object schemas containing refinements)
  'nakatomi.nswag.json › import':
    'integer enums: the bound sandbox does not start (safeExtend); starts with h/enums',
  'nakatomi.nswag.json › documented datasets':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 4 documented DirectData datasets the file does not list are refused',
  'nakatomi.nswag.json › bindings':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) incident-document bound to .../restore; task-update (v1) not bound',
  'nakatomi.nswag.json › incidents':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.4.dateValue: not a valid date-time',
  'nakatomi.nswag.json › thirdparties':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) the GUID given to the row is "x" (bare format: guid answer misread)',
  'nakatomi.nswag.json › contracts':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) the GUID given to the row is "x" (bare format: guid answer misread)',
  'nakatomi.nswag.json › task update':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'nakatomi.nswag.json › task score and status':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'nakatomi.nswag.json › task advance':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'nakatomi.nswag.json › task full update keeps values':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  // duff.swagger.yaml: YAML merge keys (<<: *guid) not resolved: import refused, exit 2, 'must NOT have additional properties' x 457, merge keys not named
  'duff.swagger.yaml › import': 'YAML merge keys not read: import refused (exit 2); imports with h/enums',
  'duff.swagger.yaml › documented datasets':
    'YAML merge keys not read: import refused (exit 2); then (forecast with h/enums) documented DirectData datasets the file does not list are refused',
  'duff.swagger.yaml › bindings':
    'YAML merge keys not read: import refused (exit 2); then (forecast with h/enums) hyperlink bound to .../Moi, incident-status to .../Restore, formresult-create to /Forms/{formGuid}/Close, all by shape; the formData hyperlink not bound',
  'duff.swagger.yaml › incidents':
    'YAML merge keys not read: import refused (exit 2); then (forecast with h/enums) no Hyperlink column (the hyperlink bound to the MOI operation)',
  'duff.swagger.yaml › thirdparties':
    'YAML merge keys not read: import refused (exit 2); then (forecast with h/enums) 400 CustomFields.4.DateValue must match dd-MM-yyyy',
  'duff.swagger.yaml › contracts':
    'YAML merge keys not read: import refused (exit 2); then (forecast with h/enums) 400 StartDate/EndDate must match dd-MM-yyyy',
  'duff.swagger.yaml › task update':
    'YAML merge keys not read: import refused (exit 2); then (forecast with h/enums) 400 ActionDate must match dd-MM-yyyy',
  'duff.swagger.yaml › task score and status':
    'YAML merge keys not read: import refused (exit 2); passes with h/enums',
  'duff.swagger.yaml › task advance':
    'YAML merge keys not read: import refused (exit 2); passes with h/enums',
  'duff.swagger.yaml › task full update keeps values':
    'YAML merge keys not read: import refused (exit 2); then (forecast with h/enums) 400 ActionDate must match dd-MM-yyyy',
  // monarch.aspnet11.json: OpenAPI 3.2.0 refused: 'Unsupported OpenAPI version: 3.2.0', exit 2
  'monarch.aspnet11.json › import':
    'OpenAPI 3.2.0 refused by the parser (exit 2); relabelled 3.1.1 it is still refused: 3.2 tag summary and parent fail the 3.1 schema; imports with h/enums',
  'monarch.aspnet11.json › documented datasets':
    'OpenAPI 3.2.0 refused by the parser (exit 2); then (forecast with h/enums) documented DirectData datasets the file does not list are refused',
  'monarch.aspnet11.json › bindings':
    'OpenAPI 3.2.0 refused by the parser (exit 2); then (forecast with h/enums) as monarch10: document -> improvement-measures, status -> restore, form result -> close',
  'monarch.aspnet11.json › incidents':
    'OpenAPI 3.2.0 refused by the parser (exit 2); then (forecast with h/enums) as monarch10: row GUID not the record made, hyperlink 404, select answers as GUIDs',
  'monarch.aspnet11.json › thirdparties':
    'OpenAPI 3.2.0 refused by the parser (exit 2); then (forecast with h/enums) as monarch10',
  'monarch.aspnet11.json › contracts':
    'OpenAPI 3.2.0 refused by the parser (exit 2); then (forecast with h/enums) as monarch10',
  'monarch.aspnet11.json › task update': 'OpenAPI 3.2.0 refused by the parser (exit 2); passes with h/enums',
  'monarch.aspnet11.json › task score and status':
    'OpenAPI 3.2.0 refused by the parser (exit 2); passes with h/enums',
  'monarch.aspnet11.json › task advance': 'OpenAPI 3.2.0 refused by the parser (exit 2); passes with h/enums',
  'monarch.aspnet11.json › task full update keeps values':
    'OpenAPI 3.2.0 refused by the parser (exit 2); passes with h/enums',
  // wayne.swashbuckle-strings.json: /api/v{version}/... paths (asp-versioning, version as a path parameter with a default) are 'a path grc-sheets cannot address': nothing bound
  'wayne.swashbuckle-strings.json › bindings':
    'v{version} paths not addressable: 0 writes and 0 lists bound; then (forecast with h/enums) bound, but every write by shape and incident-document to .../Restore',
  'wayne.swashbuckle-strings.json › incidents':
    'v{version} paths not addressable: 0 writes and 0 lists bound; then (forecast with h/enums) 400 customFieldValues.<id>: must be string (Dictionary<Guid, string>)',
  'wayne.swashbuckle-strings.json › thirdparties':
    'v{version} paths not addressable: 0 writes and 0 lists bound; then (forecast with h/enums) 400 customFieldValues.<id>: must be array (Dictionary<Guid, string[]>)',
  'wayne.swashbuckle-strings.json › contracts':
    'v{version} paths not addressable: 0 writes and 0 lists bound; then (forecast with h/enums) 400 customFieldValues.<id>: must be array (Dictionary<Guid, string[]>)',
  'wayne.swashbuckle-strings.json › task update':
    'v{version} paths not addressable: 0 writes and 0 lists bound; passes with h/enums (/v2.0/Tasks/{id})',
  'wayne.swashbuckle-strings.json › task score and status':
    'v{version} paths not addressable: 0 writes and 0 lists bound; passes with h/enums',
  'wayne.swashbuckle-strings.json › task advance':
    'v{version} paths not addressable: 0 writes and 0 lists bound; passes with h/enums',
  'wayne.swashbuckle-strings.json › task full update keeps values':
    'v{version} paths not addressable: 0 writes and 0 lists bound; passes with h/enums',
  // umbrella.swashbuckle-v2.json: integer enums (x-enum-varnames): the bound sandbox does not start
  'umbrella.swashbuckle-v2.json › import':
    'integer enums: the bound sandbox does not start (safeExtend); starts with h/enums',
  'umbrella.swashbuckle-v2.json › documented datasets':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) documented DirectData datasets the file does not list are refused',
  'umbrella.swashbuckle-v2.json › bindings':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) incident-hyperlink bound to .../mois and incident-status to .../restore by shape; the real hyperlink (in: formData) not bindable',
  'umbrella.swashbuckle-v2.json › incidents':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) refused on Name (required) although typed: the name of the wrongly bound MOI step',
  'umbrella.swashbuckle-v2.json › thirdparties':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.4.dateValue: not a valid date-time',
  'umbrella.swashbuckle-v2.json › contracts':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) bare-uuid answer: the GUID given to the row is not the record made; select answers sent as GUIDs where the description says names',
  'umbrella.swashbuckle-v2.json › task update':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'umbrella.swashbuckle-v2.json › task score and status':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'umbrella.swashbuckle-v2.json › task advance':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'umbrella.swashbuckle-v2.json › task full update keeps values':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) a comment-only update sends score: null, 400 (score is not nullable in the file)',
  // oscorp.swashbuckle-autorest.json: integer enums (x-ms-enum): the bound sandbox does not start
  'oscorp.swashbuckle-autorest.json › import':
    'integer enums: the bound sandbox does not start (safeExtend); starts with h/enums',
  'oscorp.swashbuckle-autorest.json › documented datasets':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) documented DirectData datasets the file does not list are refused',
  'oscorp.swashbuckle-autorest.json › bindings':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) incident-document bound to .../mois (Incidents_CreateMoi) by name, incident-status to .../restore by shape',
  'oscorp.swashbuckle-autorest.json › incidents':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.4.dateValue: not a valid date-time',
  'oscorp.swashbuckle-autorest.json › thirdparties':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) 400 customFields.4.dateValue: not a valid date-time',
  'oscorp.swashbuckle-autorest.json › contracts':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) bare-uuid answer: the GUID given to the row is not the record made; select answers sent as GUIDs where the description says names',
  'oscorp.swashbuckle-autorest.json › task update':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'oscorp.swashbuckle-autorest.json › task score and status':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'oscorp.swashbuckle-autorest.json › task advance':
    'integer enums: the bound sandbox does not start (safeExtend); passes with h/enums',
  'oscorp.swashbuckle-autorest.json › task full update keeps values':
    'integer enums: the bound sandbox does not start (safeExtend); then (forecast with h/enums) a comment-only update sends score: null, 400 (score is not nullable in the file)',
  // Files that import and run: the checks that find something
  'gekko.springdoc.json › bindings':
    '{taskId}:advance not bound; /api/dimensions/business|framework not bound (business dimensions bound to business assessments); incident-document -> .../measures (MOI), incident-status -> .../restore',
  'gekko.springdoc.json › incidents':
    'dimension lists not bound: rows refused no-list on Business and Framework dimensions',
  'gekko.springdoc.json › thirdparties': 'framework dimensions list not bound: refused no-list',
  'gekko.springdoc.json › contracts':
    "bare-uuid answer: the row's GUID is not the record made; dropdown sent as option GUID (wants name), multi-select as two GUID entries (wants 'EU|US')",
  'gekko.springdoc.json › task advance':
    '{taskId}:advance not bound: Advance refused step-unavailable; passes with h/enums',
  'gekko.springdoc.json › task full update keeps values':
    "comment-only Update sends score: null where the file's score is a plain number: 400; passes with h/fullupdate",
  'prestige.fastapi.json › bindings':
    'incident-hyperlink bound to POST .../mois (the real one is form-urlencoded); incident-document -> .../restore; formresult-create -> /forms/{form_id}/close',
  'prestige.fastapi.json › incidents':
    "hyperlink bound to the MOI operation: no Hyperlink column, the MOI's name/initial_due_date offered instead, row refused on Name",
  'prestige.fastapi.json › thirdparties':
    "custom_fields dict[UUID, str | list[str] | None]: 400 'matches none of the shapes (anyOf)'",
  'prestige.fastapi.json › contracts':
    "custom_fields dict[UUID, str | list[str] | None]: 400 'matches none of the shapes (anyOf)'",
  'monarch.aspnet10.json › bindings':
    'incident-document -> .../improvement-measures (MOI), incident-status -> .../restore, formresult-create -> /forms/{id}/close',
  'monarch.aspnet10.json › incidents':
    "201 + bare uuid: the row's GUID is not the record made, the hyperlink then 404s; dropdown/multi-select sent as option GUIDs where the description says names",
  'monarch.aspnet10.json › thirdparties':
    "201 + bare uuid: the row's GUID is not the record made; select answers sent as GUIDs where the description says names",
  'monarch.aspnet10.json › contracts':
    "201 + bare uuid: the row's GUID is not the record made; select answers sent as GUIDs where the description says names",
  'wayne.swashbuckle-strings.json › documented datasets':
    'documented DirectData datasets the file does not list are refused: not available on this environment (no operation of the file fits)',
  'gekko.springdoc.json › documented datasets':
    'documented DirectData datasets the file does not list are refused: not available on this environment (no operation of the file fits); passes with h/available',
  'prestige.fastapi.json › documented datasets':
    'documented DirectData datasets the file does not list are refused: not available on this environment (no operation of the file fits); passes with h/available',
  'monarch.aspnet10.json › documented datasets':
    'documented DirectData datasets the file does not list are refused: not available on this environment (no operation of the file fits); passes with h/available',
};
