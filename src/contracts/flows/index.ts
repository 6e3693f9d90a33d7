import type { FlowDescription } from './description';
import { contractsDescription } from './contracts';
import { incidentsDescription } from './incidents';
import { tasksDescription } from './tasks';
import { thirdPartiesDescription } from './thirdparties';

export type { FlowDescription, FlowId, Place, StepInfo } from './description';
export { datasetsRead } from './description';

/** The write-back flows as every part reads them, in the order the taskpane lists them (writeback/flows FLOWS). */
export const FLOW_DESCRIPTIONS: readonly FlowDescription[] = [incidentsDescription, thirdPartiesDescription, contractsDescription, tasksDescription];
