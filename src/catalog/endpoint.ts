import type { z } from 'zod';
import type { BoundDataset, BoundOperation, HttpMethod } from './placement';

export type Area =
  | 'Risks'
  | 'Controls'
  | 'Incidents'
  | 'Third parties'
  | 'Audits'
  | 'Findings'
  | 'Tasks'
  | 'KRIs'
  | 'Business assessments'
  | 'Data management'
  | 'MOIs'
  | 'Forms'
  | 'Standing data'
  /** Datasets a customer's Swagger file has and the catalogue lacks (binding extraDatasets). */
  | 'Other';

/**
 * What a key needs to call an endpoint (spec, Authentication rules 7 to 11):
 * - directdata: owner is an Application Administrator and the key has Get direct data (rule 9).
 * - module: the key has the module's API selected (rule 10: selected APIs cover module reads).
 * - write: owner is an Application Administrator (rule 10); `caller` names a per-operation rule (rule 11).
 */
export type Access =
  | { kind: 'directdata' }
  | { kind: 'module'; api: ApiName }
  | { kind: 'write'; caller?: 'incident-document' | 'task-advance' | 'final-score' };

/** Selected-API names a key can carry (spec: API key, Selected APIs). Our spelling; see README. */
export const API_NAMES = [
  'GetDirectData',
  'Incidents',
  'ThirdParties',
  'Tasks',
  'Controls',
  'FindingReports',
  'Forms',
] as const;
export type ApiName = (typeof API_NAMES)[number];

interface Common {
  /** Stable id used by the relay, the sandbox, the taskpane and the workbook bindings. */
  id: string;
  /** Relative to the environment's base URL, which includes the API root; `{name}` marks a parameter (`{guid}` in the catalogue). */
  path: string;
  version: 'v1' | 'v2' | 'v3' | null;
  area: Area;
  title: string;
  description: string;
  /** false: the spec does not show the path; we assume one, and a binding (docs/binding.md) can place it. */
  documented: boolean;
  access: Access;
  /** Set when the binding lacks this endpoint (missing) or left it ambiguous without a pick: never called. */
  unavailable?: { reason: 'missing' | 'ambiguous'; message: string };
}

export interface Dataset extends Common {
  kind: 'dataset';
  method: 'GET';
  record: z.ZodObject;
  /** Set when a binding placed this dataset: its path above is the bound one. */
  binding?: BoundDataset;
  /** Set on an older dataset that a newer one replaces (the spec says to use the v3 risk endpoints). */
  supersededBy?: string;
  /**
   * Set when this environment's API file does not list the dataset and it is kept at the spec's documented
   * path (binding.ts keepsDocumented): shown as "documented, not in your API file".
   */
  notInFile?: true;
}

export interface Operation extends Common {
  kind: 'operation';
  /** POST in the catalogue; a binding may bind it to the customer's PUT or PATCH (or GET). */
  method: HttpMethod;
  /** Set when a binding placed this operation: its method and path above are the bound ones. */
  binding?: BoundOperation;
  body: z.ZodType | null;
  answer: z.ZodType;
}

export type Endpoint = Dataset | Operation;
