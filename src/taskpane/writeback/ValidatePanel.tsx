import { Text } from '@fluentui/react-components';
import { ProblemList } from './ProblemList';
import { usePanelStyles } from './styles';
import type { Checked, Writeback } from './useWriteback';
import { counted } from '../../words/count';

/** What the last validation found: rows ready, rows with errors, and every problem by sheet row. */
export function ValidatePanel({ checked, onSelect }: { checked: Checked; onSelect: Writeback['selectProblem'] }) {
  const s = usePanelStyles();
  return (
    <section aria-label="Validation" data-testid="wb-validation">
      <div className={s.counts}>
        <Text weight="semibold" data-testid="wb-ready">
          {counted(checked.toSend, 'row')} ready
        </Text>
        {checked.toCheck > 0 && <Text>{checked.toCheck} to check in the service first</Text>}
        <Text>{checked.errors} with errors</Text>
        <Text>
          {counted(checked.warnings, 'warning')}
        </Text>
      </div>
      <ProblemList problems={checked.problems} firstRow={checked.firstRow} onSelect={(g) => void onSelect(g)} />
    </section>
  );
}
