import type { AnyFlow, FlowId } from '../flow';
import { contractsFlow } from './contracts';
import { incidentsFlow } from './incidents';
import { tasksFlow } from './tasks';
import { thirdPartiesFlow } from './thirdparties';

export const FLOWS: readonly AnyFlow[] = [
  incidentsFlow,
  thirdPartiesFlow,
  contractsFlow,
  tasksFlow,
] as AnyFlow[];

export function flowById(id: FlowId): AnyFlow {
  const f = FLOWS.find((x) => x.id === id);
  if (!f) throw new Error(`no write-back flow "${id}"`);
  return f;
}
