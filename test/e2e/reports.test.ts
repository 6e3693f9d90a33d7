/**
 * A loaded dataset reads like a report, in the preview in headless Chromium at the two widths the taskpane
 * lives at (350 px: the pane with the grid stacked under it; 1280 px: side by side): headers in words,
 * identifier and name first, widths from the content, the header row frozen while the grid scrolls, and
 * the columns chosen and ordered before the load, kept by a refresh. Screenshots in test/e2e/screenshots/.
 */
import type { Page } from 'playwright-core';
import { connect, openPreview, screenshot, stackForFile, type Stack, type TestBrowser } from './harness';

let stack: Stack;
let browser: TestBrowser;
stackForFile({ scale: 60 }, (s) => ({ stack, browser } = s));

const grid = (page: Page) => page.locator('[data-testid="preview-grid"]');
/** The header row's texts of the table at A1 of the sheet shown (the grid draws an empty column past the table). */
async function headers(page: Page): Promise<string[]> {
  const texts = await grid(page).locator('tbody tr').first().locator('td').allInnerTexts();
  while (texts.at(-1) === '') texts.pop();
  return texts;
}

async function load(page: Page): Promise<string> {
  await page.getByTestId('load').click();
  const done = page.getByTestId('load-done').or(page.getByTestId('load-error'));
  await done.first().waitFor();
  return done.first().innerText();
}

describe('at 1280 px', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPreview(browser, stack, { width: 1280, height: 800 });
    page.setDefaultTimeout(10_000);
    expect(await connect(page, 'sandbox-acc', stack.acc.demoKey!)).toBe('ok');
  }, 60_000);
  afterAll(() => page.close());

  test('incidents load with headers in words, fitted widths and a frozen header row', async () => {
    await page.getByRole('tab', { name: 'Datasets' }).click();
    await page.getByTestId('dataset-incidents').click();
    expect(await load(page)).toMatch(/Loaded \d+ rows/);
    const names = await headers(page);
    expect(names.slice(0, 4)).toEqual(['Identifier', 'Name', 'Reporting organization', 'Description']);
    expect(names).toEqual(expect.arrayContaining(['Date detected', 'Root cause category']));
    // The GUID columns follow the catalogue's readable fields; fields the catalogue does not know (the
    // sandbox sends some) come after them, at the right, as they show up.
    const at = names.indexOf('GUID');
    expect(names.slice(at, at + 4)).toEqual(['GUID', 'MOI GUIDs', 'Risk GUIDs', 'Control GUIDs']);
    expect(at).toBeGreaterThan(names.indexOf('Reporter'));
    // Widths from the content: an identifier column is narrower than the description's, which is capped.
    const width = (letter: string) =>
      grid(page)
        .locator(`td[data-cell="${letter}1"]`)
        .evaluate((el) => el.getBoundingClientRect().width);
    expect(await width('A')).toBeLessThan(await width('D'));
    expect(await width('D')).toBeLessThanOrEqual(360);
    await screenshot(page, 'reports-1280-incidents');
  });

  test('risks with the columns chosen and ordered before the load; a refresh keeps them', async () => {
    await page.getByRole('tab', { name: 'Datasets' }).click();
    await page.getByTestId('dataset-risk').click();
    await page.getByTestId('columns-toggle').click();
    const choice = page.getByTestId('column-choice');
    await expect(choice.locator('li').count()).resolves.toBe(17);
    for (const field of [
      'Description',
      'Organization',
      'RiskCategory',
      'RootCauseCategoryGuids',
      'NetLikelihood',
      'NetImpact',
      'LastReviewDate',
      'FrameworkDimensions',
    ]) {
      await page.getByTestId(`column-${field}`).uncheck();
    }
    // The key cannot be left out.
    await expect(page.getByTestId('column-Id').isDisabled()).resolves.toBe(true);
    // Past Owner, Organization, Description and Name: second, after the identifier.
    for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Move Status up' }).click();
    await expect(page.getByTestId('columns-toggle').innerText()).resolves.toBe(
      'Columns: 9 of 17 columns, your order',
    );
    await screenshot(page, 'reports-1280-choose-columns');
    expect(await load(page)).toMatch(/Loaded \d+ rows/);
    const chosen = [
      'Identifier',
      'Status',
      'Name',
      'Owner',
      'Gross likelihood',
      'Gross impact',
      'Date identified',
      'GUID',
      'Control GUIDs',
    ];
    await expect(headers(page)).resolves.toEqual(chosen);
    await screenshot(page, 'reports-1280-risks-chosen');
    // Scrolled down, the header row stays right under the column letters.
    const scroller = grid(page).locator('table').locator('xpath=..');
    await scroller.evaluate((el) => (el.scrollTop = 600));
    expect(await scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    const head = await grid(page).locator('thead th').first().boundingBox();
    const header = await grid(page).locator('td[data-cell="A1"]').boundingBox();
    expect(Math.abs(header!.y - (head!.y + head!.height))).toBeLessThanOrEqual(2);
    await screenshot(page, 'reports-1280-scrolled');
    await scroller.evaluate((el) => (el.scrollTop = 0));

    await page.getByRole('tab', { name: 'Tables' }).click();
    const card = page.getByTestId('table-tbl_risk');
    await card.getByTestId('refresh').click();
    await card.getByTestId('refresh-result').or(card.getByTestId('refresh-error')).first().waitFor();
    await expect(card.getByTestId('refresh-result').innerText()).resolves.toMatch(/^Refreshed: \d+ rows/);
    await page.getByTestId('sheet-Risks').click();
    await expect(headers(page)).resolves.toEqual(chosen);
  });

  test('the risk register loads as a report: custom fields as columns, names for GUIDs, GUIDs last', async () => {
    await page.getByRole('tab', { name: 'Datasets' }).click();
    await page.getByTestId('dataset-register:risks').click();
    expect(await load(page)).toMatch(/Loaded \d+ rows/);
    const names = await headers(page);
    expect(names.slice(0, 2)).toEqual(['Identifier', 'Name']);
    expect(names).toEqual(expect.arrayContaining(REGISTER_COLUMNS));
    expect(names.slice(-3)).toEqual(['GUID', 'Root cause category GUIDs', 'Control GUIDs']);
    // A yes/no custom field reads Yes or No; a root cause reads Parent > Child.
    const letter = (i: number): string =>
      (i >= 26 ? letter(Math.floor(i / 26) - 1) : '') + String.fromCharCode(65 + (i % 26));
    const column = (h: string) => letter(names.indexOf(h));
    await expect(
      grid(page)
        .locator(`td[data-cell="${column('Regulatory')}2"]`)
        .innerText(),
    ).resolves.toMatch(/^(Yes|No|)$/);
    await expect(
      grid(page)
        .locator(`td[data-cell="${column('Root cause categories')}2"]`)
        .innerText(),
    ).resolves.toMatch(/ > /);
    await screenshot(page, 'reports-1280-risk-register');
    // Its custom fields, scrolled into view.
    await grid(page)
      .locator(`td[data-cell="${column('Risk appetite')}1"]`)
      .scrollIntoViewIfNeeded();
    await screenshot(page, 'reports-1280-risk-register-custom-fields');
  });
});

/** The risk register's own columns: custom fields by their definitions' names, GUIDs as names. */
const REGISTER_COLUMNS = [
  'Risk appetite',
  'Review note',
  'Regulatory',
  'Next assessment',
  'Impacted processes',
  'Root cause categories',
  'Controls',
];

describe('at 350 px', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPreview(browser, stack, { width: 350, height: 800 });
    page.setDefaultTimeout(10_000);
    expect(await connect(page, 'sandbox-acc', stack.acc.demoKey!)).toBe('ok');
  }, 60_000);
  afterAll(() => page.close());

  test('the column choice fits the pane, and the loaded risk register reads as a report under it', async () => {
    await page.getByRole('tab', { name: 'Datasets' }).click();
    await page.getByTestId('dataset-register:risks').click();
    await page.getByTestId('columns-toggle').click();
    // Nothing of the pane runs past its right edge: every row of the choice, its buttons included, is in view.
    const overflow = await page
      .getByTestId('column-choice')
      .evaluate((el) =>
        [...el.querySelectorAll('li')].some((li) => li.getBoundingClientRect().right > window.innerWidth),
      );
    expect(overflow).toBe(false);
    await screenshot(page, 'reports-350-choose-columns');
    await page.getByTestId('columns-toggle').click();
    expect(await load(page)).toMatch(/Loaded \d+ rows/);
    await expect(headers(page)).resolves.toEqual(
      expect.arrayContaining(['Identifier', 'Name', 'Gross likelihood', ...REGISTER_COLUMNS]),
    );
    await grid(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'reports-350-risk-register');
  });
});
