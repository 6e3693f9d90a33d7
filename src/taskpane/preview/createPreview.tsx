/**
 * What only the preview needs, in its own chunk (loaded by the entry when there is no Office host): the
 * in-memory workbook and the grid that draws it.
 */
import type { ReactNode } from 'react';
import { createMemoryWorkbook, type MemoryWorkbook } from '../../workbook/memory';
import { PreviewGrid } from './PreviewGrid';

/**
 * `?preview-fail=render` on the preview's URL: the grid throws while rendering, so a browser test can see the
 * taskpane's error boundary do its job. Here, in the preview chunk, so Excel's code never carries it.
 */
function FailingGrid(): never {
  throw new Error('The preview grid failed to render (asked for with ?preview-fail=render).');
}

export function createPreview(search = ''): { workbook: MemoryWorkbook; aside: ReactNode } {
  const workbook = createMemoryWorkbook();
  const fail = new URLSearchParams(search).get('preview-fail') === 'render';
  return { workbook, aside: fail ? <FailingGrid /> : <PreviewGrid workbook={workbook} /> };
}
