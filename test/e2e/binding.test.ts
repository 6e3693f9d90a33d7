/**
 * The taskpane in preview against sandboxes and a relay where PRD has a binding that lacks the create
 * contract operation: on PRD the Contracts flow is unavailable (why, and what the admin does) before any
 * template; on ACC (no binding) the assumed paths are explained, and the flow says it will ask to confirm
 * its assumed path and which datasets it lacks. Screenshots land in test/e2e/screenshots/.
 */
import type { Page } from 'playwright-core';
import { bindPaths } from '../catalog/bind-paths';
import type { Binding } from '../../src/catalog/binding';
import { connect, screenshot, stackForFile, type Stack } from './harness';

/** Every catalogue endpoint bound at its own path, except create contract, which the file lacks. */
function withoutContractCreate(): Binding {
  const b = bindPaths({});
  const { ['contract-create']: _gone, ...endpoints } = b.endpoints;
  return { ...b, endpoints, missing: { ...b.missing, 'contract-create': 'no operation of the file fits' } };
}

let stack: Stack;
let page: Page;
stackForFile({ scale: 50, bindings: { prd: withoutContractCreate() }, page: true }, (s) => ({ stack, page } = s));

const writebackTab = () => page.getByTestId('taskpane').getByRole('tab', { name: 'Write-back', exact: true });

test('on PRD, the flow its binding lacks is unavailable before any template, saying why and what the admin does', async () => {
  expect(await connect(page, 'sandbox-prd', stack.prd.demoKey!)).toBe('ok');
  await writebackTab().click();
  const flow = page.getByTestId('wb-flow');
  expect(await flow.locator('option[value="contracts"]').innerText()).toMatch(/Contracts \(unavailable\)/);
  expect(await flow.locator('option[value="incidents"]').innerText()).not.toMatch(/unavailable/);
  await flow.selectOption('contracts');
  const bar = page.getByTestId('wb-unavailable');
  await bar.waitFor();
  const text = await bar.innerText();
  expect(text).toMatch(/Contracts: unavailable on sandbox-prd/);
  expect(text).toMatch(/API file/);
  expect(text).toMatch(/docs\/binding\.md/);
  expect(await page.getByTestId('wb-new-template').isDisabled()).toBe(true);
  await screenshot(page, 'binding-prd-contracts-unavailable');

  // A flow the binding has stays available on PRD.
  await flow.selectOption('incidents');
  expect(await page.getByTestId('wb-unavailable').count()).toBe(0);
  expect(await page.getByTestId('wb-new-template').isDisabled()).toBe(false);
});

test('on ACC without a binding: assumed paths explained in words and a tooltip; the contract flow warns before a template', async () => {
  expect(await connect(page, 'sandbox-acc', stack.acc.demoKey!)).toBe('ok');
  await page.getByRole('tab', { name: 'Datasets' }).click();
  expect(await page.getByTestId('assumed-explained').innerText()).toMatch(
    /does not show their path, so grc-sheets guesses it/,
  );
  const badge = page.getByTestId('dataset-thirdparty').getByTestId('source-assumed');
  expect(await badge.innerText()).toBe('assumed path');
  expect(await badge.getAttribute('title')).toMatch(
    /guesses the path.*importing the service's Swagger file/s,
  );
  expect(await badge.getAttribute('aria-describedby')).toBe(
    await page.getByTestId('assumed-explained').getAttribute('id'),
  );
  await badge.hover();
  await screenshot(page, 'binding-acc-assumed-tooltip');

  await writebackTab().click();
  await page.getByTestId('wb-flow').selectOption('contracts');
  // Folded to their titles (first-hour.test.ts): unfolded to read them.
  await page.getByTestId('wb-assumed-details').click();
  await page.getByTestId('wb-lacking-details').click();
  expect(await page.getByTestId('wb-assumed').innerText()).toMatch(/Path assumed: .*contract/i);
  const lacking = await page.getByTestId('wb-lacking').innerText();
  expect(lacking).toMatch(/Third parties: the spec does not list it/);
  expect(lacking).toMatch(/type the third party's GUID/);
  expect(await page.getByTestId('wb-new-template').isDisabled()).toBe(false);
  await screenshot(page, 'binding-acc-contracts-assumed');
});
