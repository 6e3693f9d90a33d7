/**
 * What only the preview needs, in its own chunk (loaded by the entry when there is no Office host): the
 * in-memory workbook and the grid that draws it.
 */
import type { ReactNode } from 'react';
import { createMemoryWorkbook, type MemoryWorkbook } from '../../workbook/memory';
import { PreviewGrid } from './PreviewGrid';

export function createPreview(): { workbook: MemoryWorkbook; aside: ReactNode } {
  const workbook = createMemoryWorkbook();
  return { workbook, aside: <PreviewGrid workbook={workbook} /> };
}
