import { Button, Caption1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { activitySummary, formatActivity, type ActivityEntry } from '../activity/activity';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  bar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  entry: {
    borderLeft: `${tokens.strokeWidthThick} solid ${tokens.colorNeutralStroke1}`,
    paddingLeft: tokens.spacingHorizontalS,
    display: 'flex',
    flexDirection: 'column',
    overflowWrap: 'anywhere',
  },
  failed: { borderLeftColor: tokens.colorPaletteRedBorder2 },
  ok: { borderLeftColor: tokens.colorPaletteGreenBorder2 },
  failedText: { color: tokens.colorPaletteRedForeground1 },
});

export interface Props {
  entries: readonly ActivityEntry[];
  /** Puts text on the clipboard; injected because Office hosts and tests differ in what they allow. */
  copy(text: string): Promise<void>;
}

/** A partial post is not a failure: the rows that went through are in the service. */
const attention = (e: ActivityEntry) => e.outcome === 'failed' || e.outcome === 'cancelled';

export function ActivityScreen({ entries, copy }: Props) {
  const s = useStyles();
  const [copied, setCopied] = useState<string | null>(null);

  async function onCopy() {
    try {
      await copy(formatActivity(entries));
      setCopied(`Copied ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}.`);
    } catch {
      setCopied('The host did not allow copying. Select the list and copy it by hand.');
    }
  }

  return (
    <div className={s.root}>
      <div className={s.bar}>
        <Button onClick={onCopy} disabled={entries.length === 0} data-testid="copy-activity">
          Copy
        </Button>
        {copied && <Caption1 role="status">{copied}</Caption1>}
      </div>
      {entries.length === 0 && <Text>Nothing yet: loads, refreshes and connections show here.</Text>}
      <ol className={s.list} data-testid="activity-list" aria-label="Activity">
        {entries.map((e, i) => (
          <li key={entries.length - i} className={`${s.entry} ${attention(e) ? s.failed : s.ok}`}>
            <Text weight="semibold" className={attention(e) ? s.failedText : undefined}>
              {activitySummary(e)}
            </Text>
            <Caption1>
              {e.at.toLocaleString()} · {e.environment}
            </Caption1>
            {e.message && <Caption1 className={attention(e) ? s.failedText : undefined}>{e.message}</Caption1>}
          </li>
        ))}
      </ol>
    </div>
  );
}
