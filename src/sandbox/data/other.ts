import {
  ACTIVE_USERS,
  BUSINESS_DIMENSIONS,
  FRAMEWORK_DIMENSIONS,
  NOTIFICATION_PERIODS,
  ORGANIZATIONS,
} from './standing';
import {
  code,
  dateAfter,
  dateBefore,
  dateTimeBefore,
  listTable,
  table,
  type Ctx,
  type Rec,
  type Table,
} from './context';
import { moiIndex } from './incidents';

/** Task statuses the spec names, in the order generated tasks cycle through them. */
export const TASK_STATUS_CYCLE = ['To do', 'Rejected', 'Ready for review', 'In review'] as const;

/** Task i: responsible user i mod 8 and reviewer (i+3) mod 8, so every active user has tasks in every status. */
export function task(c: Ctx, i: number): Rec {
  const r = c.rng('task', i);
  const status = TASK_STATUS_CYCLE[i % TASK_STATUS_CYCLE.length]!;
  const scored = status === 'Ready for review' || status === 'In review';
  return {
    Id: c.guid('task', i),
    Identifier: code('TASK', i),
    Name: `${r.pick(['Review access rights', 'Update policy', 'Collect evidence', 'Reconcile accounts'])} ${i + 1}`,
    Description: 'Generated task.',
    Status: status,
    Score: scored ? 1 + r.int(5) : null,
    Comment: scored ? 'Done as planned.' : null,
    ActionDate: dateAfter(r.int(90)),
    ResponsibleUser: ACTIVE_USERS[i % ACTIVE_USERS.length]!,
    Reviewer: ACTIVE_USERS[(i + 3) % ACTIVE_USERS.length]!,
    NotificationPeriods: [r.pick(NOTIFICATION_PERIODS)],
    // Spec: a task's known fields include documents and hyperlinks. Every third task has one of each.
    Documents:
      i % 3 === 0
        ? [
            {
              Id: c.guid('document', i),
              FileName: `evidence-${i + 1}.pdf`,
              Added: dateTimeBefore(10 + (i % 30), r),
            },
          ]
        : [],
    Hyperlinks:
      i % 3 === 0
        ? [{ Url: `https://intranet.example.com/tasks/${i + 1}`, Description: 'Working paper' }]
        : [],
  };
}

const SYSTEMS = ['No system', 'Core banking', 'CRM', 'Data warehouse'];
const NO_SYSTEM_NOTE = 'No system: no system is configured for this item.';

export function otherTables(c: Ctx): Record<string, Table> {
  const s = c.sizes;
  const st = c.st;
  return {
    tasks: table(s.tasks, (i) => task(c, i)),
    kri: table(s.kris, (i) => {
      const r = c.rng('kri', i);
      const lower = r.int(50);
      return {
        Id: c.guid('kri', i),
        Identifier: code('KRI', i),
        Name: `${r.pick(['Failed payments', 'Open incidents', 'Overdue MOIs', 'Staff turnover'])} ${i + 1}`,
        Unit: r.pick(['count', '%', 'EUR']),
        LowerThreshold: lower,
        UpperThreshold: lower + 10 + r.int(50),
        FrameworkDimensions: [r.pick(FRAMEWORK_DIMENSIONS)],
      };
    }),
    kridatavalues: table(s.kris * 12, (i) => ({
      Id: c.guid('kriValue', i),
      KriId: c.guid('kri', Math.floor(i / 12)),
      Date: dateBefore(30 * (12 - (i % 12))),
      Value: c.rng('kriValue', i).int(100),
    })),
    businessassessment: table(s.businessAssessments, (i) => {
      const r = c.rng('businessAssessment', i);
      const frequency = r.pick(['Monthly', 'Quarterly', 'Yearly', 'Single test']);
      return {
        Id: c.guid('businessAssessment', i),
        Organization: r.pick(ORGANIZATIONS),
        BusinessDimension: r.pick(BUSINESS_DIMENSIONS),
        Reviewers: [r.pick(ACTIVE_USERS)],
        ReviewFrequency: frequency,
        InitialDate: dateBefore(400 + r.int(300)),
        // Single test: the next review date is left empty (spec, Business assessment transitions).
        NextReviewDate: frequency === 'Single test' ? null : dateAfter(r.int(120)),
        Reviews: [0, 1].map((k) => ({
          DateReviewed: dateBefore(90 * (k + 1)),
          Score: r.pick(st.assessmentScores).Name,
          Reviewer: r.pick(ACTIVE_USERS),
          Comment: k === 0 ? 'Stable.' : null,
        })),
      };
    }),
    businessassessmentscore: listTable(st.assessmentScores),
    datamanagement: table(s.dataManagement, (i) => {
      const r = c.rng('dataManagement', i);
      const system = SYSTEMS[i % SYSTEMS.length]!;
      return {
        Id: c.guid('dataManagement', i),
        Name: `Data asset ${i + 1}`,
        System: system,
        Note: system === 'No system' ? NO_SYSTEM_NOTE : null,
        MoiGuids: i < s.moisPerType ? [c.guid('moi', moiIndex('datamanagement', i))] : [],
        RiskGuids: [c.guid('risk', r.int(s.risks))],
        ControlGuids: [c.guid('control', r.int(s.controls))],
      };
    }),
    datastructure: table(s.dataManagement, (i) => {
      const system = SYSTEMS[(i + 1) % SYSTEMS.length]!;
      return {
        Id: c.guid('dataStructure', i),
        Name: `Data structure ${i + 1}`,
        System: system,
        Note: system === 'No system' ? NO_SYSTEM_NOTE : null,
      };
    }),
    formresults: table(st.forms.length * 5, (i) => {
      const form = st.forms[Math.floor(i / 5)]!;
      const r = c.rng('formResult', i);
      return {
        Id: c.guid('formResult', i),
        FormId: form.Id,
        SubmittedAt: dateTimeBefore(r.int(200), r),
        Values: [
          { FieldName: 'Submitted by', Value: r.pick(ACTIVE_USERS) },
          { FieldName: 'Answer', Value: r.pick(['Yes', 'No', 'Partly']) },
        ],
      };
    }),
  };
}
