import { Caption1, mergeClasses } from '@fluentui/react-components';
import { useGridStyles } from './gridStyles';

/** Excel's name box: the selected cell (or block) and its value as shown, announced as it changes. */
export function NameBox({ sheet, selected, shown, display }: { sheet: string; selected: string | null; shown: string | null; display: string | undefined }) {
  const s = useGridStyles();
  return (
    <div className={s.nameBox} role="status" aria-live="polite" data-testid="grid-name-box">
      {selected && <Caption1 className={s.nameAddress}>{shown}</Caption1>}
      {selected && display ? (
        <Caption1 className={s.nameValue}>{display}</Caption1>
      ) : (
        <Caption1 className={mergeClasses(s.nameValue, s.blank)}>{selected ? '(empty)' : `No cell selected on ${sheet}`}</Caption1>
      )}
    </div>
  );
}
