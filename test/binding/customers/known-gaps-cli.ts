/**
 * The checks of test/cli/corpus-doors.test.ts on the customer files (template -> openpyxl -> `grc-sheets post`
 * through the relay, read at the recording proxy against each file's wants) that the product does not pass yet,
 * each with the reason seen. The same mechanism as ./known-gaps.ts (the library door's table): a check named here
 * must still fail (the test says so when it starts to pass: then remove its line); a check not named here must
 * pass. Keys are `<file> › cli <check>`.
 *
 * Seen on h/doors2 (main with h/doors and h/outside, 15:45 UTC): before h/enums, h/forms, h/precision, h/available
 * and h/fullupdate are merged. The reason is the first problem the check listed ("(+n more)": how many others).
 * "then (forecast with h/enums)" / "passes with h/enums": the same test on a scratch merge of this branch with h/enums
 * as committed at 15:45 (nothing of it pushed). On a scratch merge with h/enums and then h/fullupdate (which already
 * holds h/forms and main), at 15:55, EVERY check below passed for all ten files: after the lead's merges this table
 * should be empty (the test says so line by line).
 * A silent drop here is a typed value sent otherwise than the file wants (a dropdown answer as the option's GUID
 * where the description asks for its name) with the row "created" and nothing said on the cell.
 */
export const CLI_KNOWN_GAPS: Record<string, string> = {
  "duff.swagger.yaml › cli import":
    "YAML merge keys not read: binding import refuses the file (exit 2, schema validation); enums' fix; passes with h/enums",
  "duff.swagger.yaml › cli incidents":
    "YAML merge keys not read: binding import refuses the file (exit 2, schema validation); enums' fix; then (forecast with h/enums) row 1: not sent: Not sent: the row was deleted or edited after validation; Post again (+3 more)",
  "duff.swagger.yaml › cli thirdparties":
    "YAML merge keys not read: binding import refuses the file (exit 2, schema validation); enums' fix; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. CustomFields.4.DateValue: The value must match pattern \"^\\\\d{2}-\\\\d{2}-\\\\d",
  "duff.swagger.yaml › cli contracts":
    "YAML merge keys not read: binding import refuses the file (exit 2, schema validation); enums' fix; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. StartDate: The value must match pattern \"^\\\\d{2}-\\\\d{2}-\\\\d{4}$\"; EndDate:",
  "duff.swagger.yaml › cli task update":
    "YAML merge keys not read: binding import refuses the file (exit 2, schema validation); enums' fix; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. ActionDate: The value must match pattern \"^\\\\d{2}-\\\\d{2}-\\\\d{4}$\".",
  "duff.swagger.yaml › cli task score and status":
    "YAML merge keys not read: binding import refuses the file (exit 2, schema validation); enums' fix; passes with h/enums",
  "duff.swagger.yaml › cli task advance":
    "YAML merge keys not read: binding import refuses the file (exit 2, schema validation); enums' fix; passes with h/enums",
  "duff.swagger.yaml › cli task full update keeps values":
    "YAML merge keys not read: binding import refuses the file (exit 2, schema validation); enums' fix; then (forecast with h/enums) row 4: failed: The service rejected the request (400). The request body is not valid. ActionDate: The value must match pattern \"^\\\\d{2}-\\\\d{2}-\\\\d{4}$\".",
  "duff.swagger.yaml › cli no silent drop":
    "YAML merge keys not read: binding import refuses the file (exit 2, schema validation); enums' fix; passes with h/enums",
  "gekko.springdoc.json › cli incidents":
    "row 1: failed: The service rejected the request (400). The request body is not valid. customFields.<guid>: The value must be string; customFields.<guid>: The value must be string. (+2 more); then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. customFields.<guid>: The value must be string; customFields.<guid>: The va (+2 more)",
  "gekko.springdoc.json › cli thirdparties":
    "row 1: Criticality (Dropdown custom field): wants \"Medium\" in /customFields, found [\"<guid>\"] (+1 more); then (forecast with h/enums) row 1: Criticality (Dropdown custom field): wants \"Medium\" in /customFields, found [\"<guid>\"] (+1 more)",
  "gekko.springdoc.json › cli contracts":
    "row 1: Contract category (Dropdown custom field): wants \"Service level\" in /customFields, found [\"<guid>\"] (+1 more); then (forecast with h/enums) row 1: Contract category (Dropdown custom field): wants \"Service level\" in /customFields, found [\"<guid>\"] (+1 more)",
  "gekko.springdoc.json › cli task advance":
    "no Advance row: the binding has no advance operation; passes with h/enums",
  "gekko.springdoc.json › cli task full update keeps values":
    "row 3: failed: The service rejected the request (400). The request body is not valid. score: The value must be number.; then (forecast with h/enums) row 4: failed: The service rejected the request (400). The request body is not valid. score: The value must be number.",
  "gekko.springdoc.json › cli no silent drop":
    "incidents row 3: Fraud scheme [Fraud] (Dropdown custom field): wants \"Identity theft\" under /customFields/<field GUID>, found [\"<guid>\"] (+4 more); then (forecast with h/enums) incidents row 3: Fraud scheme [Fraud] (Dropdown custom field): wants \"Identity theft\" under /customFields/<field GUID>, found [\"<guid>\"] (+4 more)",
  "monarch.aspnet10.json › cli incidents":
    "row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+2 more); then (forecast with h/enums) row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+2 more)",
  "monarch.aspnet10.json › cli thirdparties":
    "row 1: Criticality (Dropdown custom field): wants \"Medium\" in /customFields, found [\"<guid>\"] (+1 more); then (forecast with h/enums) row 1: Criticality (Dropdown custom field): wants \"Medium\" in /customFields, found [\"<guid>\"] (+1 more)",
  "monarch.aspnet10.json › cli contracts":
    "row 1: Contract category (Dropdown custom field): wants \"Service level\" in /customFields, found [\"<guid>\"] (+1 more); then (forecast with h/enums) row 1: Contract category (Dropdown custom field): wants \"Service level\" in /customFields, found [\"<guid>\"] (+1 more)",
  "monarch.aspnet10.json › cli no silent drop":
    "incidents row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+6 more); then (forecast with h/enums) incidents row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+6 more)",
  "monarch.aspnet11.json › cli import":
    "OpenAPI 3.2.0 refused by the parser (exit 2); enums' fix; passes with h/enums",
  "monarch.aspnet11.json › cli incidents":
    "OpenAPI 3.2.0 refused by the parser (exit 2); enums' fix; then (forecast with h/enums) row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+2 more)",
  "monarch.aspnet11.json › cli thirdparties":
    "OpenAPI 3.2.0 refused by the parser (exit 2); enums' fix; then (forecast with h/enums) row 1: Criticality (Dropdown custom field): wants \"Medium\" in /customFields, found [\"<guid>\"] (+1 more)",
  "monarch.aspnet11.json › cli contracts":
    "OpenAPI 3.2.0 refused by the parser (exit 2); enums' fix; then (forecast with h/enums) row 1: Contract category (Dropdown custom field): wants \"Service level\" in /customFields, found [\"<guid>\"] (+1 more)",
  "monarch.aspnet11.json › cli task update":
    "OpenAPI 3.2.0 refused by the parser (exit 2); enums' fix; passes with h/enums",
  "monarch.aspnet11.json › cli task score and status":
    "OpenAPI 3.2.0 refused by the parser (exit 2); enums' fix; passes with h/enums",
  "monarch.aspnet11.json › cli task advance":
    "OpenAPI 3.2.0 refused by the parser (exit 2); enums' fix; passes with h/enums",
  "monarch.aspnet11.json › cli task full update keeps values":
    "OpenAPI 3.2.0 refused by the parser (exit 2); enums' fix; passes with h/enums",
  "monarch.aspnet11.json › cli no silent drop":
    "OpenAPI 3.2.0 refused by the parser (exit 2); enums' fix; then (forecast with h/enums) incidents row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+6 more)",
  "nakatomi.nswag.json › cli import":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "nakatomi.nswag.json › cli incidents":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+3 more)",
  "nakatomi.nswag.json › cli thirdparties":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "nakatomi.nswag.json › cli contracts":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "nakatomi.nswag.json › cli task update":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "nakatomi.nswag.json › cli task score and status":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "nakatomi.nswag.json › cli task advance":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "nakatomi.nswag.json › cli task full update keeps values":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "nakatomi.nswag.json › cli no silent drop":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) incidents row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+1 more)",
  "oscorp.swashbuckle-autorest.json › cli import":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "oscorp.swashbuckle-autorest.json › cli incidents":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+3 more)",
  "oscorp.swashbuckle-autorest.json › cli thirdparties":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. customFields.4.dateValue: The value is not a valid date-time.",
  "oscorp.swashbuckle-autorest.json › cli contracts":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 1: Contract category (Dropdown custom field): wants \"Service level\" in /customFields, found [\"<guid>\"] (+1 more)",
  "oscorp.swashbuckle-autorest.json › cli task update":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "oscorp.swashbuckle-autorest.json › cli task score and status":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "oscorp.swashbuckle-autorest.json › cli task advance":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "oscorp.swashbuckle-autorest.json › cli task full update keeps values":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 4: failed: The service rejected the request (400). The request body is not valid. score: The value must be number.",
  "oscorp.swashbuckle-autorest.json › cli no silent drop":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) incidents row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+3 more)",
  "prestige.fastapi.json › cli incidents":
    "row 1: not sent: Not sent: the row was deleted or edited after validation; Post again (+3 more); then (forecast with h/enums) row 1: not sent: Not sent: the row was deleted or edited after validation; Post again (+3 more)",
  "prestige.fastapi.json › cli thirdparties":
    "row 1: failed: The service rejected the request (400). The request body is not valid. custom_fields.<guid>: The value matches none of the shapes the API file allows here (anyOf).; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. custom_fields.<guid>: The value matches none of the shapes the API file al",
  "prestige.fastapi.json › cli contracts":
    "row 1: failed: The service rejected the request (400). The request body is not valid. custom_fields.<guid>: The value matches none of the shapes the API file allows here (anyOf); custom_fields.<guid>:; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. custom_fields.<guid>: The value matches none of the shapes the API file al",
  "tyrell.swashbuckle.json › cli import":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "tyrell.swashbuckle.json › cli incidents":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+3 more)",
  "tyrell.swashbuckle.json › cli thirdparties":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. customFields.0.values: The value must be array,null; customFields.1.values",
  "tyrell.swashbuckle.json › cli contracts":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. customFields.0.values: The value must be array,null; customFields.1.values",
  "tyrell.swashbuckle.json › cli task update":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "tyrell.swashbuckle.json › cli task score and status":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "tyrell.swashbuckle.json › cli task advance":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "tyrell.swashbuckle.json › cli task full update keeps values":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "tyrell.swashbuckle.json › cli no silent drop":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) incidents row 1: Business line affected [Operational incident] (Dropdown custom field): wants \"Lending\" in /customFields, found [\"<guid>\"] (+1 more)",
  "umbrella.swashbuckle-v2.json › cli import":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "umbrella.swashbuckle-v2.json › cli incidents":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 1: not sent: Not sent: the row was deleted or edited after validation; Post again (+3 more)",
  "umbrella.swashbuckle-v2.json › cli thirdparties":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. customFields.4.dateValue: The value is not a valid date-time.",
  "umbrella.swashbuckle-v2.json › cli contracts":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 1: Contract category (Dropdown custom field): wants \"Service level\" in /customFields, found [\"<guid>\"] (+1 more)",
  "umbrella.swashbuckle-v2.json › cli task update":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "umbrella.swashbuckle-v2.json › cli task score and status":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "umbrella.swashbuckle-v2.json › cli task advance":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; passes with h/enums",
  "umbrella.swashbuckle-v2.json › cli task full update keeps values":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) row 4: failed: The service rejected the request (400). The request body is not valid. score: The value must be number.",
  "umbrella.swashbuckle-v2.json › cli no silent drop":
    "integer enums: the bound sandbox does not start (zod: Cannot overwrite keys ... use .safeExtend()); enums' fix; then (forecast with h/enums) contracts row 1: Contract category (Dropdown custom field): wants \"Service level\" in /customFields, found [\"<guid>\"] (+1 more)",
  "wayne.swashbuckle-strings.json › cli incidents":
    "no incidents template: the binding has no operation for incident-create; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. customFieldValues.<guid>: The value must be string; customFieldValues.<gui (+1 more)",
  "wayne.swashbuckle-strings.json › cli thirdparties":
    "no thirdparties template: the binding has no operation for thirdparty-create; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. customFieldValues.<guid>: The value must be array; customFieldValues.<guid",
  "wayne.swashbuckle-strings.json › cli contracts":
    "no contracts template: the binding has no operation for contract-create; then (forecast with h/enums) row 1: failed: The service rejected the request (400). The request body is not valid. customFieldValues.<guid>: The value must be array; customFieldValues.<guid",
  "wayne.swashbuckle-strings.json › cli task update":
    "no Update row: the binding has no v2 task update; passes with h/enums",
  "wayne.swashbuckle-strings.json › cli task score and status":
    "no Score and status row: the binding has no score-and-status operation; passes with h/enums",
  "wayne.swashbuckle-strings.json › cli task advance":
    "no Advance row: the binding has no advance operation; passes with h/enums",
  "wayne.swashbuckle-strings.json › cli task full update keeps values":
    "no comment-only Update row: the binding has no v2 task update; passes with h/enums",
};
