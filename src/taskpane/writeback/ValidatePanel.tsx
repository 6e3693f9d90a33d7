import { Text } from '@fluentui/react-components';
import { ProblemList } from './ProblemList';
import { usePanelStyles } from './styles';
import type { Checked, Writeback } from './useWriteback';

/** What the last validation found: rows ready, rows with errors, and every problem by sheet row. */
export function ValidatePanel({ checked, onSelect }: { checked: Checked; onSelect: Writeback['selectProblem'] }) {
  const s = usePanelStyles();
  return (
    <section aria-label="Validation" data-testid="wb-validation">
      <div className={s.counts}>
        <Text weight="semibold" data-testid="wb-ready">
          {checked.toSend} row{checked.toSend === 1 ? '' : 's'} ready
        </Text>
        {checked.toCheck > 0 && <Text>{checked.toCheck} to check in the service first</Text>}
        <Text>{checked.errors} with errors</Text>
        <Text>
          {checked.warnings} warning{checked.warnings === 1 ? '' : 's'}
        </Text>
      </div>
      <ProblemList problems={checked.problems} firstRow={checked.firstRow} onSelect={(g) => void onSelect(g)} />
    </section>
  );
}
