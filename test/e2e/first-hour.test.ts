/**
 * The default demo as a newcomer first sees it (issue 19): `grc-sheets start`'s environments are bound to
 * the sandbox's own Swagger file, so the Write-back screen shows no warning about assumed paths or missing
 * lists; on an environment without a binding the warnings are short and folded, and the template and the
 * Validate/Post buttons stay in view at 320 px. Plus the details: the tab strip stays on top of a
 * scrolled pane, and the confirm dialog's buttons fit on one line. Screenshots in test/e2e/screenshots/.
 */
import type { Page } from 'playwright-core';
import { ownBinding } from '../../src/cli/own-binding';
import {
  connect,
  launchBrowser,
  openPreview,
  pasteRowsByName,
  screenshot,
  startStack,
  type Stack,
  type TestBrowser,
} from './harness';

const WIDTHS = [320, 1280] as const;
const WARNINGS = ['wb-assumed', 'wb-lacking', 'wb-skipped', 'wb-unavailable'];

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Whether the element is wholly inside the window without scrolling. */
async function inView(page: Page, testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).boundingBox();
  const size = page.viewportSize()!;
  return (
    !!box && box.y >= 0 && box.y + box.height <= size.height && box.x >= 0 && box.x + box.width <= size.width
  );
}

async function openWriteback(stack: Stack, width: number, environment = 'sandbox-acc'): Promise<Page> {
  const page = await openPreview(browser, stack, { width, height: 640 });
  const key = environment === 'sandbox-acc' ? stack.acc.demoKey! : stack.prd.demoKey!;
  expect(await connect(page, environment, key)).toBe('ok');
  await page.getByRole('tab', { name: 'Write-back' }).click();
  await page.getByTestId('wb-new-template').waitFor();
  return page;
}

describe("the default demo: bound to the sandbox's own Swagger file", () => {
  let stack: Stack;
  beforeAll(async () => {
    const own = await ownBinding();
    stack = await startStack({ bindings: { acc: own.binding, prd: own.binding } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each(WIDTHS)(
    'Write-back at %i px: no warning boxes on ACC or PRD, every flow available',
    async (width) => {
      for (const environment of ['sandbox-acc', 'sandbox-prd']) {
        const page = await openWriteback(stack, width, environment);
        const flows = page.getByTestId('wb-flow');
        for (const title of await flows.locator('option').allInnerTexts())
          expect(title).not.toContain('unavailable');
        for (const flow of await flows
          .locator('option')
          .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))) {
          await flows.selectOption(flow);
          for (const id of WARNINGS)
            expect({ flow, id, count: await page.getByTestId(id).count() }).toEqual({ flow, id, count: 0 });
        }
        await flows.selectOption('incidents');
        await screenshot(page, `first-hour-bound-${environment}-${width}`);
        await page.close();
      }
    },
  );

  it.each([...WIDTHS, 500])(
    "the production confirmation at %i px: both buttons' labels on one line",
    async (width) => {
      const page = await openWriteback(stack, width, 'sandbox-prd');
      await page.getByTestId('wb-new-template').click();
      await page.getByTestId('template-done').waitFor();
      await pasteRowsByName(page, 'A2', [
        ['Name', 'Reporting organization', 'Incident types', 'Classification', 'Date detected'],
        ['Phishing mail at the front desk', 'Finance', 'Operational incident', 'High', '2025-03-04'],
      ]);
      await page.getByTestId('wb-post').click();
      await page.getByTestId('confirm-post').waitFor();
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
      const buttons = page.getByTestId('confirm-post').getByRole('button');
      for (const name of ['Do not post', 'Post 1 row to sandbox-prd']) {
        const button = buttons.filter({ hasText: name });
        expect(await button.evaluate(lineCount)).toBe(1);
        const box = (await button.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(width);
      }
      await screenshot(page, `first-hour-confirm-${width}`);
      await page.getByRole('button', { name: 'Do not post' }).click();
      expect(stack.prd.store.addedRecords('incidents')).toHaveLength(0);
      await page.close();
    },
  );
});

describe('a narrow pane scrolled down', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('keeps the tab strip at the top, on its own background: nothing shows through it', async () => {
    const page = await openWriteback(stack, 320);
    await page.getByTestId('wb-new-template').click();
    await page.getByTestId('template-done').waitFor();
    await page.getByTestId('wb-assumed-details').click();
    const tabs = page.getByRole('tablist').first();
    const scrolled = await page.evaluate(() => {
      window.scrollTo(0, 300);
      return window.scrollY;
    });
    expect(scrolled).toBe(300);
    await screenshot(page, 'first-hour-scrolled-320');
    const box = (await tabs.boundingBox())!;
    expect(box.y).toBe(0);
    // Whatever is drawn across the strip belongs to it: no text of the pane under it.
    for (const x of [10, 100, 200, 310]) {
      const onTop = await page.evaluate(
        ([px, py]) => !!document.elementFromPoint(px!, py!)?.closest('[role="tablist"]'),
        [x, box.y + box.height / 2],
      );
      expect({ x, onTop }).toEqual({ x, onTop: true });
    }
    const background = await tabs.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).not.toMatch(/^(transparent|rgba\(0, 0, 0, 0\))$/);
    await page.close();
  });
});

/** How many lines the element's text takes as drawn. */
function lineCount(element: Element): number {
  const range = document.createRange();
  range.selectNodeContents(element);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
}

describe('an environment without a binding', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each(WIDTHS)(
    'Write-back at %i px: the warnings folded to their titles, the template and Validate/Post in view',
    async (width) => {
      const page = await openWriteback(stack, width);
      await screenshot(page, `first-hour-unbound-${width}`);
      await page.getByTestId('wb-new-template').click();
      await page.getByTestId('wb-post').waitFor();
      for (const id of ['wb-new-template', 'wb-table', 'wb-validate', 'wb-post']) {
        expect(await inView(page, id)).toBe(true);
      }
      await screenshot(page, `first-hour-unbound-template-${width}`);
      const assumed = page.getByTestId('wb-assumed');
      expect(await assumed.innerText()).not.toMatch(/Path assumed/);
      await page.getByTestId('wb-assumed-details').click();
      expect(await assumed.innerText()).toMatch(/Path assumed: Create an incident at \/incidents/);
      await screenshot(page, `first-hour-unbound-details-${width}`);
      await page.getByTestId('wb-assumed-details').click();
      expect(await assumed.innerText()).not.toMatch(/Path assumed/);
      await page.close();
    },
  );
});
