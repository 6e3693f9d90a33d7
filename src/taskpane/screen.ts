import type { GrcClient } from '../client';
import type { WorkbookPort } from '../workbook/port';
import type { ActivityEntry } from './activity/activity';
import type { Environment } from './connection/environments';

/** A tested connection: the environment and a client whose key worked. */
export interface Session {
  environment: Environment;
  client: GrcClient;
  /** Where calls go, recorded with each loaded table for readers of the file, e.g. "relay https://host". */
  source: string;
  /** Names the key in audit records: a short hash of its identifier, never the identifier itself. */
  keyFingerprint: string;
  /**
   * The signed-in person (relay-held key): audit rows name them beside the key, since the service itself
   * records only the key's owner. Absent with a personal key.
   */
  actor?: { subject: string; name: string };
  /**
   * Signed in: whether the relay's policy lets the person post this write-back flow here (its flows, and on
   * production its production right). Absent with a personal key (the key decides).
   */
  flowAllowed?: (flowId: string) => boolean;
}

/** What the shell gives every screen (Connect, Datasets, Tables, Write-back, Activity). */
export interface ScreenProps {
  workbook: WorkbookPort;
  /** null until "Test connection" succeeded. */
  session: Session | null;
  onActivity(entry: ActivityEntry): void;
  /** Tell the shell the workbook changed, so the Tables screen and the preview grid read it again. */
  onWorkbookChanged(): void;
  /** Increases on every workbook change: a dependency for effects that read the workbook. */
  workbookVersion: number;
}
