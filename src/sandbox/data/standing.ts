import type { z } from 'zod';
import type { records } from '../../catalog';
import { guidOf } from './guids';

/**
 * Standing data: the same at every scale (only the big datasets scale), so write-back templates and tests
 * can rely on it. GUIDs depend on the seed only.
 */

export type FieldType = 'Text' | 'Number' | 'Date' | 'Checkbox' | 'Dropdown' | 'MultiSelect';
export interface AnswerOption {
  Id: string;
  Name: string;
  Value: string;
  Colour: string;
}
export interface FieldDefinition {
  Id: string;
  Name: string;
  Type: FieldType;
  Required: boolean;
  Visible: boolean;
  AnswerOptions: AnswerOption[];
}
export interface IncidentTypeField extends FieldDefinition {
  IncidentTypeId: string;
}
/** The catalogue's incident type record, every field filled: generated standing data has no gaps. */
export type IncidentType = {
  [K in 'Id' | 'Name' | 'Standard' | 'Archived']-?: NonNullable<z.infer<typeof records.incidentType>[K]>;
};
export interface User {
  name: string;
  email: string;
  /** Deleted users stay in their roles, shown with an asterisk (spec, Incident rule 7). */
  deleted: boolean;
}
export interface Named {
  Id: string;
  Name: string;
  Description: string;
  Order: number;
}

export const USERS: readonly User[] = [
  { name: 'Anna de Vries', email: 'anna.devries@example.com', deleted: false },
  { name: 'Bram Jansen', email: 'bram.jansen@example.com', deleted: false },
  { name: 'Chloe Martin', email: 'chloe.martin@example.com', deleted: false },
  { name: 'Daan Bakker', email: 'daan.bakker@example.com', deleted: false },
  { name: 'Eva Visser', email: 'eva.visser@example.com', deleted: false },
  { name: 'Finn Smit', email: 'finn.smit@example.com', deleted: false },
  { name: 'Grace Lee', email: 'grace.lee@example.com', deleted: false },
  { name: 'Hugo Meijer', email: 'hugo.meijer@example.com', deleted: false },
  { name: 'Iris de Boer', email: 'iris.deboer@example.com', deleted: true },
  { name: 'Jonas Mulder', email: 'jonas.mulder@example.com', deleted: true },
];
export const ACTIVE_USERS = USERS.filter((u) => !u.deleted).map((u) => u.name);

export const ORGANIZATIONS: readonly string[] = [
  'Head Office',
  'Retail Banking',
  'Corporate Banking',
  'Asset Management',
  'Insurance',
  'IT Operations',
  'Human Resources',
  'Finance',
];

export const FRAMEWORK_DIMENSIONS = ['ISO 27001', 'DORA', 'NIS2', 'SOX', 'GDPR'] as const;
export const BUSINESS_DIMENSIONS = ['Payments', 'Lending', 'Savings', 'Investments', 'Claims'] as const;
export const NOTIFICATION_PERIODS = ['NP-1D', 'NP-1W', 'NP-2W', 'NP-1M'] as const;

const COLOURS = ['#2e7d32', '#f9a825', '#c62828', '#1565c0', '#6a1b9a'];

function buildStanding(seed: number) {
  let n = 0;
  const id = () => guidOf(seed, 'standing', n++);
  const options = (...names: string[]): AnswerOption[] =>
    names.map((name, i) => ({
      Id: id(),
      Name: name,
      Value: String(i + 1),
      Colour: COLOURS[i % COLOURS.length]!,
    }));
  const field = (
    Name: string,
    Type: FieldType,
    Required: boolean,
    Visible = true,
    opts: string[] = [],
  ): FieldDefinition => ({
    Id: id(),
    Name,
    Type,
    Required,
    Visible,
    AnswerOptions: options(...opts),
  });
  const named = (...names: string[]): Named[] =>
    names.map((Name, i) => ({ Id: id(), Name, Description: `${Name} (standing data)`, Order: i + 1 }));

  const incidentTypes: IncidentType[] = [
    { Id: id(), Name: 'Operational incident', Standard: true, Archived: false },
    { Id: id(), Name: 'Data breach', Standard: true, Archived: false },
    { Id: id(), Name: 'Fraud', Standard: false, Archived: false },
    { Id: id(), Name: 'IT outage', Standard: false, Archived: false },
    { Id: id(), Name: 'Legacy complaint', Standard: false, Archived: true },
  ];
  const typed = (type: number, f: FieldDefinition): IncidentTypeField => ({
    ...f,
    IncidentTypeId: incidentTypes[type]!.Id,
  });
  const incidentTypeFields: IncidentTypeField[] = [
    typed(0, field('Estimated loss (EUR)', 'Number', true)),
    typed(0, field('Business line affected', 'Dropdown', false, true, ['Payments', 'Lending', 'Savings'])),
    typed(0, field('Reported to regulator', 'Checkbox', false)),
    typed(1, field('Personal data involved', 'Checkbox', true)),
    typed(1, field('Date reported to authority', 'Date', false)),
    typed(
      1,
      field('Data categories', 'MultiSelect', false, true, ['Contact data', 'Financial data', 'Health data']),
    ),
    typed(2, field('Fraud scheme', 'Dropdown', true, true, ['Phishing', 'Identity theft', 'Internal fraud'])),
    typed(2, field('Police report number', 'Text', false)),
    typed(3, field('Outage start', 'Date', true)),
    typed(3, field('Systems affected', 'Text', false)),
    typed(4, field('Complaint reference', 'Text', false)),
  ];

  const rootCauses: { GUID: string; ParentGUID: string | null; Name: string }[] = [];
  for (const [top, children] of [
    ['People', ['Human error', 'Insufficient training', 'Fraudulent behaviour']],
    ['Process', ['Inadequate procedure', 'Missing control', 'Change management']],
    ['Systems', ['Hardware failure', 'Software defect', 'Cyber attack']],
    ['External events', ['Natural disaster', 'Supplier failure']],
  ] as const) {
    const parent = { GUID: id(), ParentGUID: null, Name: top };
    rootCauses.push(parent);
    for (const c of children) rootCauses.push({ GUID: id(), ParentGUID: parent.GUID, Name: c });
  }

  const built = {
    incidentTypes,
    incidentTypeFields,
    classifications: named('Low', 'Medium', 'High', 'Critical'),
    rootCauses,
    riskFields: [
      field('Risk appetite', 'Dropdown', true, true, ['Averse', 'Minimal', 'Cautious', 'Open']),
      field('Review note', 'Text', false),
      field('Regulatory', 'Checkbox', false),
      field('Next assessment', 'Date', false),
      field('Internal scoring', 'Number', false, false),
    ],
    controlFields: [
      field('Control type', 'Dropdown', true, true, ['Preventive', 'Detective', 'Corrective']),
      field('Automated', 'Checkbox', false),
      field('Frequency', 'Dropdown', false, true, ['Daily', 'Monthly', 'Yearly']),
      field('Legacy code', 'Text', false, false),
    ],
    thirdPartyFields: [
      field('Criticality', 'Dropdown', true, true, ['Low', 'Medium', 'High']),
      field('Services provided', 'MultiSelect', false, true, [
        'Cloud hosting',
        'Payroll',
        'Consulting',
        'Data processing',
      ]),
      field('Outsourcing', 'Checkbox', false),
      field('Last due diligence', 'Date', false),
      field('Internal rating', 'Number', false, false),
    ],
    contractFields: [
      field('Contract category', 'Dropdown', false, true, ['Framework', 'Service level', 'License']),
      field('Exit regions', 'MultiSelect', false, true, ['EU', 'UK', 'US', 'APAC']),
      field('Auto renewal', 'Checkbox', false),
      field('Contract value (EUR)', 'Number', false),
    ],
    hyperlinkTypes: named('Evidence', 'Policy', 'Ticket'),
    auditTypes: named('Operational audit', 'IT audit', 'Compliance audit'),
    auditScores: named('Effective', 'Partially effective', 'Ineffective'),
    auditCriticality: named('Low', 'Medium', 'High'),
    auditConfidentiality: named('Public', 'Internal', 'Confidential', 'Secret'),
    auditSeverity: named('Minor', 'Moderate', 'Major', 'Critical'),
    auditFollowUp: named('Open', 'In progress', 'Closed'),
    auditWorkflows: [
      { Id: id(), Name: 'Standard audit', Steps: ['Planning', 'Fieldwork', 'Reporting', 'Follow-up'] },
      { Id: id(), Name: 'Short audit', Steps: ['Fieldwork', 'Reporting'] },
    ],
    assessmentScores: ['Insufficient', 'Moderate', 'Good', 'Excellent'].map((Name, i) => ({
      Id: id(),
      Name,
      Value: i + 1,
    })),
    // Forms that use incident types: an active form blocks archiving its types (spec, Incident type transitions).
    forms: [
      {
        Id: id(),
        Name: 'Incident intake',
        Active: true,
        IncidentTypeIds: [incidentTypes[0]!.Id, incidentTypes[1]!.Id],
      },
      { Id: id(), Name: 'Supplier questionnaire', Active: true, IncidentTypeIds: [] as string[] },
      { Id: id(), Name: 'Annual self-assessment', Active: false, IncidentTypeIds: [incidentTypes[2]!.Id] },
    ],
    // Spec (Audit): custom fields of the audit context and of the audit risk assessment exist with their values.
    auditContextFields: [
      field('Audit universe area', 'Dropdown', false, true, ['Finance', 'IT', 'Operations']),
      field('Regulator request', 'Checkbox', false),
      field('Budget (days)', 'Number', false),
    ],
    auditRiskAssessmentFields: [
      field('Inherent risk', 'Dropdown', true, true, ['Low', 'Medium', 'High']),
      field('Assessment note', 'Text', false),
    ],
  };
  // Added after everything else, so the GUIDs of the standing data above stay what they were: every area's
  // custom fields then have each type (a multi-select and a date where they lacked one) and an invisible field.
  built.riskFields.push(field('Impacted processes', 'MultiSelect', false, true, ['Onboarding', 'Payments', 'Reporting', 'Lending']));
  built.controlFields.push(
    field('Last tested', 'Date', false),
    field('Assertions', 'MultiSelect', false, true, ['Completeness', 'Accuracy', 'Existence']),
    field('Key control score', 'Number', false),
  );
  built.thirdPartyFields.push(field('Account manager', 'Text', false));
  built.contractFields.push(field('Renewal date', 'Date', false), field('Contract owner', 'Text', false), field('Legal entity code', 'Text', false, false));
  built.auditContextFields.push(field('Planned start', 'Date', false), field('Themes', 'MultiSelect', false, true, ['Cyber', 'Conduct', 'Outsourcing']), field('Sponsor note', 'Text', false, false));
  return built;
}

export type Standing = ReturnType<typeof buildStanding>;

const cache = new Map<number, Standing>();
export function standing(seed: number): Standing {
  let s = cache.get(seed);
  if (!s) cache.set(seed, (s = buildStanding(seed)));
  return s;
}

/** A user name as the service shows it in a role: deleted users keep the role, marked with an asterisk. */
export function roleName(name: string): string {
  const user = USERS.find((u) => u.name === name.replace(/\*$/, ''));
  return user?.deleted ? `${user.name}*` : name;
}
