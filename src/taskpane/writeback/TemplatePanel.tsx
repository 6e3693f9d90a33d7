import { Button, Caption1, Field, Select } from '@fluentui/react-components';
import { FLOWS, flowAvailability, flowById, type FlowId } from '../../writeback';
import { ErrorBar } from '../components/ErrorBar';
import type { Session } from '../screen';
import { FlowNotice } from './FlowNotice';
import { usePanelStyles } from './styles';
import type { Writeback } from './useWriteback';

/**
 * Choose a flow and make its template, or choose a write-back table already in the workbook. The flow's
 * mapping and example request are folds at the foot of the screen (FlowDetails), below the problems.
 */
export function TemplatePanel({ wb, session }: { wb: Writeback; session: Session }) {
  const s = usePanelStyles();
  const { records, table, environment, busy } = wb;
  const names = Object.keys(records);
  return (
    <>
      <div className={s.bar}>
        <Field label="Flow">
          <Select
            value={wb.flowId}
            onChange={(_, d) => wb.chooseFlow(d.value as FlowId)}
            disabled={busy !== null}
            data-testid="wb-flow"
          >
            {FLOWS.map((f) => (
              <option key={f.id} value={f.id}>
                {f.title}
                {flowAvailability(f, session.environment).post.kind === 'unavailable' ? ' (unavailable)' : ''}
                {session.flowAllowed && !session.flowAllowed(f.id) ? ' (not allowed for you)' : ''}
              </option>
            ))}
          </Select>
        </Field>
        <Button onClick={wb.newTemplate} disabled={busy !== null || wb.unavailable || !wb.allowed} data-testid="wb-new-template">
          New template
        </Button>
      </div>
      {!wb.allowed && (
        <Caption1 data-testid="wb-not-allowed">
          {wb.allowedFlows === 0
            ? `The relay's policy lets you post none of these flows to ${environment}, so there is no template to make here. Ask the relay's administrators for a rule that gives your group a flow.`
            : `The relay's policy does not let you post ${wb.flow.title} to ${environment}. Choose a flow not marked "not allowed for you", or ask the relay's administrators for a rule that gives your group this one.`}
        </Caption1>
      )}
      {wb.availability && (
        <FlowNotice flowTitle={wb.flow.title} environment={environment} availability={wb.availability} />
      )}
      <Field label="Table">
        <Select
          value={table}
          onChange={(_, d) => wb.chooseTable(d.value)}
          disabled={busy !== null}
          data-testid="wb-table"
          className={s.fit}
        >
          <option value="">
            {names.length ? 'Choose a table' : 'No write-back table yet: make a template'}
          </option>
          {names.map((n) => (
            <option key={n} value={n}>
              {n} ({flowById(records[n]!.flow).title}, {records[n]!.environment})
            </option>
          ))}
        </Select>
      </Field>
      {table && records[table] && records[table].environment !== environment && (
        <ErrorBar
          intent="warning"
          testId="wb-env-warning"
          message={{
            title: `Filled for ${records[table].environment}`,
            detail: `You are connected to ${environment}. Posting will ask you to confirm.`,
          }}
        />
      )}
    </>
  );
}
