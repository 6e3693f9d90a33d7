import { makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

const useStyles = makeStyles({
  list: {
    position: 'fixed',
    zIndex: 10,
    maxHeight: '240px',
    minWidth: '160px',
    overflowY: 'auto',
    margin: 0,
    padding: tokens.spacingVerticalXXS,
    listStyle: 'none',
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    boxShadow: tokens.shadow16,
    fontSize: tokens.fontSizeBase200,
    ':focus-visible': { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}` },
  },
  option: {
    paddingInline: tokens.spacingHorizontalS,
    paddingBlock: tokens.spacingVerticalXXS,
    cursor: 'default',
    whiteSpace: 'nowrap',
  },
  active: { backgroundColor: tokens.colorNeutralBackground1Selected },
  current: { fontWeight: tokens.fontWeightSemibold },
});

export interface Props {
  /** The column name, for the list's label. */
  column: string;
  values: readonly string[];
  /** The cell's value now: the option highlighted first. */
  current: string;
  /** Where to open: the cell's box on the screen. */
  at: { left: number; top: number };
  onPick(value: string): void;
  /** `key`: Escape or Tab, focus goes back to the cell; `blur`: the user went elsewhere, focus stays there. */
  onClose(reason: 'key' | 'blur'): void;
}

/**
 * A cell's data-validation list, opened from the cell's arrow or with Alt+Down, as Excel shows it: the
 * arrow keys move through the values, Enter or a click puts one in the cell, Escape closes.
 */
export function ListPopup({ column, values, current, at, onPick, onClose }: Props) {
  const s = useStyles();
  const id = useId();
  const ref = useRef<HTMLUListElement>(null);
  // A pick closes the list by itself: the blur that follows as focus goes back to the grid is not a close.
  const picked = useRef(false);
  const choose = (value: string) => {
    picked.current = true;
    onPick(value);
  };
  const [active, setActive] = useState(() =>
    Math.max(
      0,
      values.findIndex((v) => v.toLowerCase() === current.toLowerCase()),
    ),
  );
  // Block bodies: an effect must not return what focus() returns (Fluent's focus tracking wraps focus()).
  useEffect(() => {
    ref.current?.focus();
  }, []);
  useEffect(() => {
    ref.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  function onKeyDown(e: KeyboardEvent<HTMLUListElement>) {
    const last = values.length - 1;
    const to: Record<string, number> = {
      ArrowDown: Math.min(active + 1, last),
      ArrowUp: Math.max(active - 1, 0),
      Home: 0,
      End: last,
      PageDown: Math.min(active + 10, last),
      PageUp: Math.max(active - 10, 0),
    };
    e.stopPropagation();
    if (e.key in to) {
      e.preventDefault();
      setActive(to[e.key]!);
    } else if (e.key === 'Enter' && values[active] !== undefined) {
      e.preventDefault();
      choose(values[active]!);
    } else if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      onClose('key');
    }
  }

  return (
    <ul
      ref={ref}
      className={s.list}
      style={{ left: at.left, top: at.top }}
      role="listbox"
      aria-label={`Values of ${column}`}
      aria-activedescendant={values.length ? `${id}-${active}` : undefined}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onBlur={(e) => {
        if (!picked.current && !e.currentTarget.contains(e.relatedTarget as Node | null)) onClose('blur');
      }}
      data-testid="grid-list"
    >
      {values.map((v, i) => (
        <li
          key={v}
          id={`${id}-${i}`}
          data-index={i}
          role="option"
          aria-selected={i === active}
          className={`${s.option} ${i === active ? s.active : ''} ${v === current ? s.current : ''}`}
          onMouseDown={(e) => e.preventDefault()}
          onMouseEnter={() => setActive(i)}
          onClick={() => choose(v)}
        >
          {v}
        </li>
      ))}
    </ul>
  );
}
