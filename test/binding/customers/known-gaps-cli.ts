/**
 * The checks of test/cli/corpus-doors.test.ts on the customer files (template -> openpyxl -> `grc-sheets post`
 * through the relay, read at the recording proxy against each file's wants) that the product does not pass yet,
 * each with the reason seen. The same mechanism as ./known-gaps.ts (the library door's table): a check named here
 * must still fail (the test says so when it starts to pass: then remove its line); a check not named here must
 * pass. Keys are `<file> › cli <check>`.
 *
 * A silent drop here is a typed value sent otherwise than the file wants (a dropdown answer as the option's GUID
 * where the description asks for its name) with the row "created" and nothing said on the cell.
 */
// Empty: every check of every customer file passes through the command line on main.
export const CLI_KNOWN_GAPS: Record<string, string> = {};
