/** What the Activity screen lists and copies: one entry per user-visible operation, newest first. */
export interface ActivityEntry {
  at: Date;
  action: 'connect' | 'load' | 'refresh' | 'writeback';
  /** `partial`: some of it went through and some did not (a post with rows failed, not sent or unknown). */
  outcome: 'ok' | 'failed' | 'cancelled' | 'partial';
  environment: string;
  /** The dataset or operation, by catalogue id (in copied text, where an id is what a reader searches for). */
  subject?: string;
  /** The dataset's title, as the Datasets screen shows it: what the Activity screen names. */
  title?: string;
  table?: string;
  rows?: number;
  message?: string;
}

export function formatEntry(e: ActivityEntry): string {
  const parts = [e.at.toISOString(), e.action, e.outcome, `env=${e.environment}`];
  if (e.subject) parts.push(`dataset=${e.subject}`);
  if (e.table) parts.push(`table=${e.table}`);
  if (e.rows !== undefined) parts.push(`rows=${e.rows}`);
  if (e.message) parts.push(`"${e.message.replace(/"/g, "'")}"`);
  return parts.join('\t');
}

export function formatActivity(entries: readonly ActivityEntry[]): string {
  return ['time\taction\toutcome\tdetails', ...entries.map(formatEntry)].join('\n');
}

// What happened, in the words a user would use: "Load cancelled", not "Loaded: cancelled".
const HEADLINE: Record<ActivityEntry['action'], Record<ActivityEntry['outcome'], string>> = {
  connect: { ok: 'Connected', failed: 'Connection failed', cancelled: 'Connection cancelled', partial: 'Connected' },
  load: { ok: 'Loaded', failed: 'Load failed', cancelled: 'Load cancelled', partial: 'Partly loaded' },
  refresh: { ok: 'Refreshed', failed: 'Refresh failed', cancelled: 'Refresh cancelled', partial: 'Partly refreshed' },
  writeback: { ok: 'Posted', failed: 'Posting failed', cancelled: 'Posting cancelled', partial: 'Partly posted' },
};

/** The entry's headline as the Activity screen shows it: "Loaded: Third party contracts, 1,200 rows". */
export function activitySummary(e: ActivityEntry): string {
  const table = e.table && (e.action === 'load' ? `into ${e.table}` : e.table);
  const rows = e.rows !== undefined && `${e.rows.toLocaleString()} ${e.rows === 1 ? 'row' : 'rows'}`;
  const what = [e.title ?? e.subject, table, rows].filter(Boolean).join(', ');
  const headline = HEADLINE[e.action][e.outcome];
  return what ? `${headline}: ${what}` : headline;
}
