import { auditTables } from './audits';
import { context, type Ctx, type Table } from './context';
import { controlTables } from './controls';
import { directoryTables } from './directory';
import { incidentTables } from './incidents';
import { otherTables } from './other';
import { riskTables } from './risks';
import { thirdPartyTables } from './thirdparties';

/** Every generated dataset by catalogue id, plus the context that made them. */
export function generate(seed: number, scale: number): { ctx: Ctx; tables: Record<string, Table> } {
  const ctx = context(seed, scale);
  return {
    ctx,
    tables: {
      ...riskTables(ctx),
      ...controlTables(ctx),
      ...incidentTables(ctx),
      ...thirdPartyTables(ctx),
      ...auditTables(ctx),
      ...otherTables(ctx),
      ...directoryTables(ctx),
    },
  };
}
