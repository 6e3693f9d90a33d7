/** What the Activity screen lists and copies: one entry per user-visible operation, newest first. */
export interface ActivityEntry {
  at: Date;
  action: 'connect' | 'load' | 'refresh' | 'writeback';
  outcome: 'ok' | 'failed' | 'cancelled';
  environment: string;
  /** The dataset or operation, by catalogue id. */
  subject?: string;
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
