import { Button, Caption1, Checkbox, makeStyles, tokens } from '@fluentui/react-components';
import {
  ArrowDown16Regular,
  ArrowUp16Regular,
  ChevronDown16Regular,
  ChevronRight16Regular,
} from '@fluentui/react-icons';
import { useState } from 'react';
import { choiceSummary, moved, toggled, type ColumnItem } from '../datasets/columns';

const useStyles = makeStyles({
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    maxHeight: '40vh',
    overflowY: 'auto',
  },
  row: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXXS,
    minWidth: 0,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
  },
  label: { flexGrow: 1, flexShrink: 1, minWidth: 0, overflowWrap: 'anywhere' },
  toggle: { alignSelf: 'flex-start', paddingInline: 0, minWidth: 0 },
  foot: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
});

export interface Props {
  items: readonly ColumnItem[];
  initial: readonly ColumnItem[];
  onChange(items: ColumnItem[]): void;
  disabled?: boolean;
  /** Columns the load adds that are not known before it (a register's custom fields), in words. */
  more?: string;
}

/**
 * The columns a first load makes, and their order: folded to one line until opened, as most loads take
 * the report's columns as they are. Moving is by buttons, not dragging: it works by keyboard and in a
 * 350-pixel taskpane.
 */
export function ColumnChooser({ items, initial, onChange, disabled, more }: Props) {
  const s = useStyles();
  const [open, setOpen] = useState(false);
  return (
    <div>
      <Button
        appearance="transparent"
        className={s.toggle}
        icon={open ? <ChevronDown16Regular /> : <ChevronRight16Regular />}
        aria-expanded={open}
        aria-controls="column-choice"
        onClick={() => setOpen(!open)}
        disabled={disabled}
        data-testid="columns-toggle"
      >
        Columns: {choiceSummary(items, initial)}
        {more ? ` + ${more}` : ''}
      </Button>
      {open && (
        <div id="column-choice">
          <ul className={s.list} aria-label="Columns of the table, in order" data-testid="column-choice">
            {items.map((item, n) => (
              <li key={item.field} className={s.row}>
                <div className={s.label}>
                  <Checkbox
                    checked={item.shown}
                    disabled={disabled || item.key}
                    onChange={() => onChange(toggled(items, item.field))}
                    label={item.key ? `${item.header} (identifies the record: always loaded)` : item.header}
                    title={`Field ${item.field}`}
                    data-testid={`column-${item.field}`}
                  />
                </div>
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<ArrowUp16Regular />}
                  aria-label={`Move ${item.header} up`}
                  disabled={disabled || n === 0}
                  onClick={() => onChange(moved(items, item.field, -1))}
                />
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<ArrowDown16Regular />}
                  aria-label={`Move ${item.header} down`}
                  disabled={disabled || n === items.length - 1}
                  onClick={() => onChange(moved(items, item.field, 1))}
                />
              </li>
            ))}
          </ul>
          <div className={s.foot}>
            <Caption1>
              {more ? `The ${more} are added when it loads, before the GUID columns. ` : ''}A refresh keeps
              this choice and order; new fields of the service are added at the end.
            </Caption1>
            <Button
              size="small"
              onClick={() => onChange([...initial])}
              disabled={disabled}
              data-testid="columns-reset"
            >
              All, in report order
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
