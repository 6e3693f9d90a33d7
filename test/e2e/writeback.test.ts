/**
 * Write-back in preview mode, in headless Chromium, against the sandboxes behind the relay: a new incident
 * template, rows filled in, validation marks on the cells, a post with GUIDs landing in the Result GUID
 * column, and the confirmation production asks for. Screenshots land in test/e2e/screenshots/.
 */
import type { Page } from 'playwright-core';
import { bindPaths } from '../catalog/bind-paths';
import { connect, pasteRowsByName, screenshot, stackForFile, type Stack } from './harness';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let stack: Stack;
let page: Page;
// Both environments bound as a Swagger file matching the catalogue would bind them: without a binding the
// flows' assumed paths ask for a confirmation on ACC and are unavailable on PRD (test/e2e/binding.test.ts).
stackForFile({ scale: 50, bindings: { acc: bindPaths(), prd: bindPaths() }, connectTo: 'sandbox-acc' }, (s) => ({ stack, page } = s));

const writebackTab = () => page.getByTestId('taskpane').getByRole('tab', { name: 'Write-back', exact: true });

/** The grid cell under the header `column`, `row` rows below it (0 = first body row). */
function cellUnder(column: string, row: number) {
  return page.evaluate(
    ({ column, row }) => {
      const header = [
        ...document.querySelectorAll<HTMLElement>('[data-testid="preview-grid"] td[data-cell]'),
      ].find((td) => td.innerText.trim() === column);
      if (!header) return null;
      const [, letters, n] = /^([A-Z]+)(\d+)$/.exec(header.dataset.cell!)!;
      const cell = document.querySelector<HTMLElement>(
        `[data-testid="preview-grid"] td[data-cell="${letters}${Number(n) + 1 + row}"]`,
      );
      return cell ? { text: cell.innerText, title: cell.title } : null;
    },
    { column, row },
  );
}

const rows = [
  [
    'Name',
    'Reporting organization',
    'Incident types',
    'Classification',
    'Date detected',
    'Estimated loss (EUR) [Operational incident]',
    'Reported to regulator [Operational incident]',
  ],
  [
    'Phishing mail at the front desk',
    'Finance',
    'Operational incident',
    'High',
    '2025-03-04',
    '2500',
    'FALSE',
  ],
  ['Laptop left on a train', 'Head Office', 'Operational incident', 'Medium', '2025-03-05', '1200', 'TRUE'],
  ['Payment batch ran twice', 'Retail Banking', '', 'Critical', '', '', ''],
  ['', 'Finance', '', 'Low', '', '', ''],
  ['Printer jam', 'Finance', '', 'Low', '03/04/2025', '', ''],
  ['Old complaint', 'Finance', 'Legacy complaint', '', '', '', ''],
];

test('a new incident template has the flow columns, custom fields, dropdown lists and result columns', async () => {
  await writebackTab().click();
  await page.getByTestId('wb-flow').selectOption('incidents');
  // The mapping in the environment's file's words, collapsed until opened.
  const mapping = page.getByTestId('wb-mapping');
  expect(await mapping.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
  await mapping.locator('summary').click();
  expect(await mapping.innerText()).toContain('Reporting organization → ReportingOrganization');
  await mapping.locator('summary').click();
  await page.getByTestId('wb-new-template').click();
  await page.getByTestId('template-done').waitFor();
  expect(await page.getByTestId('template-done').innerText()).toContain('GrcIncidents');
  for (const column of [
    'Name',
    'Reporting organization',
    'Estimated loss (EUR) [Operational incident]',
    'Result',
    'Result GUID',
  ]) {
    expect(await cellUnder(column, -1)).not.toBeNull();
  }
  await screenshot(page, 'wb-01-template');
});

test('rows pasted into the grid validate: ready rows counted, problems listed and marked on their cells', async () => {
  await pasteRowsByName(page, 'A2', rows);
  await page.getByTestId('wb-validate').click();
  await page.getByTestId('wb-validation').waitFor();
  expect(await page.getByTestId('wb-ready').innerText()).toBe('3 rows ready');
  const problems = await page.getByTestId('problems').innerText();
  expect(problems).toContain('Row 5, Name'); // sheet rows: the header is row 1
  expect(problems).toContain('Row 6, Date detected');
  expect(problems).toContain('could be 2025-04-03 (day first) or 2025-03-04 (month first)');
  expect(problems).toContain('Row 7, Incident types');
  expect(problems).toContain('archived');
  // The mark's note sits on the cell (the preview shows it in the cell's tooltip).
  expect((await cellUnder('Date detected', 4))?.title).toContain('type the date as yyyy-mm-dd');
  await screenshot(page, 'wb-02-validated');
});

test('choosing a problem selects its cell in the preview grid', async () => {
  await page.getByTestId('problems').getByText('Row 6, Date detected').click();
  // The marked cell of that problem (its note is the message) is the one the name box now shows.
  const marked = await page.evaluate(() => {
    const td = [...document.querySelectorAll<HTMLElement>('[data-testid="preview-grid"] td[data-cell]')].find((c) =>
      c.title.includes('type the date as yyyy-mm-dd'),
    );
    return td?.dataset.cell ?? null;
  });
  expect(marked).toMatch(/^[A-Z]+6$/);
  await page.waitForFunction(
    (address) => document.querySelector('[data-testid="grid-name-box"]')?.textContent?.startsWith(address),
    marked!,
  );
});

test('posting sends the valid rows and the new GUIDs land in the Result GUID column', async () => {
  await page.getByTestId('wb-post').click();
  await page.getByTestId('post-done').waitFor({ timeout: 20_000 });
  expect(await page.getByTestId('post-done').innerText()).toContain('3 created');
  for (const row of [0, 1, 2]) {
    expect((await cellUnder('Result', row))?.text).toBe('created');
    expect((await cellUnder('Result GUID', row))?.text).toMatch(GUID);
  }
  // The row with errors was not sent, and says so.
  expect((await cellUnder('Result', 3))?.text ?? '').toMatch(/^Not sent: \d+ errors?$/);
  const created = stack.acc.store.addedRecords('incidents').map((r) => r.Name);
  expect(created).toEqual(
    expect.arrayContaining([
      'Phishing mail at the front desk',
      'Laptop left on a train',
      'Payment batch ran twice',
    ]),
  );
  // The run's audit record went to its own sheet.
  expect(await page.getByTestId('sheet-Write-back audit').count()).toBe(1);
  // Scroll the preview grid to its right end, where the result columns are.
  await page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>('[data-testid="preview-grid"] *'))
      if (el.scrollWidth > el.clientWidth + 10) el.scrollLeft = el.scrollWidth;
  });
  await screenshot(page, 'wb-03-posted');
});

test('posting again sends nothing: every valid row has its result', async () => {
  await page.getByTestId('wb-post').click();
  await page.getByTestId('post-nothing').waitFor();
  expect(stack.acc.store.addedRecords('incidents')).toHaveLength(3);
});

test('text that begins like a formula needs a choice before posting; the choice is applied and audited', async () => {
  // Below the rows pasted earlier (header in row 1, rows.length - 1 body rows from row 2).
  await pasteRowsByName(page, `A${rows.length + 1}`, [rows[0]!, ['=SUM(1+1)', 'Finance', '', 'Low', '', '', '']]);
  await page.getByTestId('wb-post').click();
  await page.getByTestId('wb-formula-choice-needed').waitFor();
  expect(stack.acc.store.addedRecords('incidents')).toHaveLength(3);
  expect(await page.getByTestId('problems').innerText()).toContain('Name (warning): begins with "="');
  await page.getByTestId('wb-formula-text').getByText("Add a leading '").click();
  await page.getByTestId('wb-post').click();
  await page.getByTestId('post-done').waitFor({ timeout: 20_000 });
  expect(stack.acc.store.addedRecords('incidents').map((r) => r.Name)).toContain("'=SUM(1+1)");
  await page.getByTestId('sheet-Write-back audit').click();
  const audit = await page.getByTestId('preview-grid').innerText();
  expect(audit).toContain('Formula-like text');
  expect(audit).toContain('neutralised');
  await screenshot(page, 'wb-04-formula-choice');
});

test('production asks for a confirmation naming the environment and the row count', async () => {
  expect(await connect(page, 'sandbox-prd', stack.prd.demoKey!)).toBe('ok');
  await writebackTab().click();
  await page.getByTestId('wb-flow').selectOption('incidents');
  // The mapping in the environment's file's words, collapsed until opened.
  const mapping = page.getByTestId('wb-mapping');
  expect(await mapping.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
  await mapping.locator('summary').click();
  expect(await mapping.innerText()).toContain('Reporting organization → ReportingOrganization');
  await mapping.locator('summary').click();
  await page.getByTestId('wb-new-template').click();
  await page.getByTestId('template-done').waitFor();
  await pasteRowsByName(page, 'A2', [rows[0]!, rows[1]!]);
  await page.getByTestId('wb-post').click();
  await page.getByTestId('confirm-post').waitFor();
  expect(await page.getByTestId('confirm-post').innerText()).toContain(
    '1 row to sandbox-prd, a production environment',
  );
  expect(await page.getByTestId('confirm-post-button').innerText()).toBe('Post 1 row to sandbox-prd');
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  await screenshot(page, 'wb-04-confirm-production');
  await page.getByRole('button', { name: 'Do not post' }).click();
  expect(stack.prd.store.addedRecords('incidents')).toHaveLength(0);
});
