import { Text, makeStyles, tokens } from '@fluentui/react-components';
import type { ScreenProps } from '../screen';
import { FlowExample } from './FlowExample';
import { FlowMapping } from './FlowMapping';
import { PostOptions, PostPanel } from './PostPanel';
import { ResultsPanel } from './ResultsPanel';
import { TemplatePanel } from './TemplatePanel';
import { ValidatePanel } from './ValidatePanel';
import { useWriteback } from './useWriteback';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

/**
 * Write-back: make a template, validate it (marks in the sheet, list here), post it with progress and
 * Cancel, confirm before production, record an audit trail. The logic lives in src/writeback, the
 * screen's state in useWriteback; the panels only show it.
 */
export default function WritebackScreen(props: ScreenProps) {
  const s = useStyles();
  const wb = useWriteback(props);
  const { session } = props;
  if (!session)
    return <Text>Connect first: write-back uses the environment's standing data and posts to it.</Text>;
  return (
    <div className={s.root}>
      <TemplatePanel wb={wb} session={session} />
      <PostPanel wb={wb} session={session} />
      <ResultsPanel notice={wb.notice} />
      {wb.checked && <ValidatePanel checked={wb.checked} onSelect={wb.selectProblem} />}
      {/* What a user reads once, below what they act on: a 350 px pane shows the problems first. */}
      <PostOptions wb={wb} />
      {wb.mapping && <FlowMapping flowTitle={wb.flow.title} environment={wb.environment} mapping={wb.mapping} />}
      <FlowExample flowTitle={wb.flow.title} environment={wb.environment} examples={wb.examples} />
    </div>
  );
}
