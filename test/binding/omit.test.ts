/**
 * "Safe to omit" (issue 24): the admin's overrides line `omit <id> <field>` is recorded on the bound
 * operation, so every door that reads the binding (relay, CLI, taskpane) leaves a blank, unknown field out
 * of a full update instead of refusing the row. A field the operation does not send is a line that no longer
 * applies, reported like any other.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importBinding, parseOverrides } from '../../src/binding';
import { formatReport } from '../../src/binding-report';
import { binding as bindingSchema, type BoundOperation } from '../../src/catalog';

const vandelay = join(__dirname, 'corpus', 'vandelay.swagger.json');

test('omit lines are parsed, applied to the bound operation and kept in the binding file', async () => {
  const overrides = join(mkdtempSync(join(tmpdir(), 'omit-')), 'vandelay.overrides');
  writeFileSync(
    overrides,
    [
      'omit task-update-v2 Description   # the service keeps a description a PUT leaves out',
      'omit task-update-v2 Description',
      'omit task-update-v2 Status        # not a field of the update',
      'omit tasks Name',
    ].join('\n'),
  );
  expect(parseOverrides('x', 'omit task-update-v2 Reviewer')).toEqual([
    { kind: 'omit', id: 'task-update-v2', field: 'Reviewer', line: 1, text: 'omit task-update-v2 Reviewer' },
  ]);
  const r = await importBinding(vandelay, { overrides, accept: true });
  const update = r.binding.endpoints['task-update-v2'] as BoundOperation;
  expect(update.omit).toEqual(['Description']);
  expect(r.binding.consequences.filter((c) => c.kind === 'dropped-override').map((c) => c.message)).toEqual([
    'line 3 "omit task-update-v2 Status": Status is not placed in the body of task-update-v2',
    'line 4 "omit tasks Name": Name is not placed in the body of tasks',
  ]);
  // The binding as written and read back by the relay keeps it.
  const reread = bindingSchema.parse(JSON.parse(JSON.stringify(r.binding)));
  expect((reread.endpoints['task-update-v2'] as BoundOperation).omit).toEqual(['Description']);
});

test('the import report names the fields the admin declared safe to omit', async () => {
  const overrides = join(mkdtempSync(join(tmpdir(), 'omit-')), 'vandelay.overrides');
  writeFileSync(overrides, 'omit task-update-v2 Description\n');
  const r = await importBinding(vandelay, { overrides, accept: true });
  expect(formatReport(r, { overrides })).toContain(
    "    safe to omit (the admin's overrides): Description; left out of the update where a row leaves it blank and its current value cannot be read",
  );
});

test('the import report names the fields a full update cannot carry over, with the omit line for each', async () => {
  const overrides = join(mkdtempSync(join(tmpdir(), 'omit-')), 'vandelay.overrides');
  writeFileSync(
    overrides,
    'unplace tasks Description\nunplace tasks NotificationPeriods\nomit task-update-v2 NotificationPeriods\n',
  );
  const r = await importBinding(vandelay, { overrides, accept: true });
  const text = formatReport(r, { overrides: 'vandelay.overrides' });
  expect(text).toContain(
    "    replaces every field it sends, and the tasks dataset does not show Description: rows that leave them blank are refused (a blank would erase the task's value). If your service keeps a field this request leaves out, declare it in vandelay.overrides:\n      omit task-update-v2 Description\n",
  );
  // The file's own, showing every field: nothing to declare.
  expect(formatReport(await importBinding(vandelay, { accept: true }))).not.toContain(
    'replaces every field it sends',
  );
});
