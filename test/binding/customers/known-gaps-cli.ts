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
 * should be empty (the test says so line by line). After merging main at 16:05 (h/doors, h/forms, h/enums, h/available,
 * h/example), 71 of the 75 passed and their lines were removed; what is left is below.
 * A silent drop here is a typed value sent otherwise than the file wants (a dropdown answer as the option's GUID
 * where the description asks for its name) with the row "created" and nothing said on the cell.
 */
export const CLI_KNOWN_GAPS: Record<string, string> = {
  'gekko.springdoc.json › cli task full update keeps values':
    "on main (16:05): the comment-only Update row's full update sends the task's empty score as null where the file's score takes no null: 400 'score: The value must be number'; passes with h/fullupdate",
  'oscorp.swashbuckle-autorest.json › cli task full update keeps values':
    "on main (16:05): the comment-only Update row's full update sends the task's empty score as null where the file's score takes no null: 400 'score: The value must be number'; passes with h/fullupdate",
  'umbrella.swashbuckle-v2.json › cli task full update keeps values':
    "on main (16:05): the comment-only Update row's full update sends the task's empty score as null where the file's score takes no null: 400 'score: The value must be number'; passes with h/fullupdate",
};
