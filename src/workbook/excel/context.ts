import type { ChunkOptions } from '../chunks';
import { WorkbookError, isWorkbookError } from '../errors';
import type { WriteStats } from '../port';

/** `Office.context.requirements.isSetSupported`, passed in so this module needs no global. */
export type Requirements = (set: string, version: string) => boolean;

export interface ExcelWorkbookOptions extends ChunkOptions {
  /** `Office.context.platform`: deleting table rows directly is possible only in Excel on the web. */
  platform?: string;
}

export type Ctx = Excel.RequestContext;

/** What the host can do, worked out once per adapter from its requirement sets and platform. */
export interface Host {
  has(version: string): boolean;
  canResize: boolean;
  canDeleteRows: boolean;
  options: ExcelWorkbookOptions;
}

export function hostOf(requirements: Requirements, options: ExcelWorkbookOptions): Host {
  const has = (version: string) => requirements('ExcelApi', version);
  return {
    has,
    canResize: has('1.13'),
    canDeleteRows: options.platform === 'OfficeOnline' && requirements('ExcelApiOnline', '1.1'),
    options,
  };
}

/** Runs a batch, turning Excel's own errors into workbook errors that say Excel refused. */
export async function execIn<T>(run: typeof Excel.run, batch: (ctx: Ctx) => Promise<T>): Promise<T> {
  try {
    return await run(batch);
  } catch (e) {
    if (isWorkbookError(e)) throw e;
    const err = e as { code?: string; message?: string };
    throw new WorkbookError('host', `Excel refused the change (${err.code ?? 'error'}): ${err.message ?? String(e)}`);
  }
}

/** One round trip, counted in `stats` with its estimated request size. */
export async function sync(ctx: Ctx, stats: WriteStats | undefined, bytes: number): Promise<void> {
  await ctx.sync();
  if (stats) {
    stats.syncs++;
    stats.maxPayloadBytes = Math.max(stats.maxPayloadBytes, bytes);
  }
}

export const newStats = (): WriteStats => ({ syncs: 0, maxPayloadBytes: 0 });
