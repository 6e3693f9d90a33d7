import { Button, Caption1, Checkbox, Field, Input, ProgressBar, Radio, RadioGroup } from '@fluentui/react-components';
import { AUDIT_SHEET, type FormulaText } from '../../writeback';
import type { Session } from '../screen';
import { ConfirmDialog } from './ConfirmDialog';
import { usePanelStyles } from './styles';
import type { Writeback } from './useWriteback';
import { counted } from '../../words/count';

/** Validate and Post, the progress of a post with Cancel, and the confirmation; their options are PostOptions. */
export function PostPanel({ wb, session }: { wb: Writeback; session: Session }) {
  const s = usePanelStyles();
  const { busy, progress, confirm } = wb;
  return (
    <>
      {wb.table && (
        <div className={s.bar}>
          {/* Validate leads until a validation has found rows to send: Post then leads. */}
          <Button appearance={wb.readyToPost ? 'secondary' : 'primary'} onClick={wb.validate} disabled={busy !== null} data-testid="wb-validate">
            Validate
          </Button>
          <Button appearance={wb.readyToPost ? 'primary' : 'secondary'} onClick={wb.post} disabled={busy !== null || wb.unavailable} data-testid="wb-post">
            Post{session.environment.production ? ` to ${wb.environment}` : ''}
          </Button>
        </div>
      )}
      {wb.table && wb.checked && wb.checked.formulaRows > 0 && (
        <Field
          label={`Text that begins with =, +, - or @ (${counted(wb.checked.formulaRows, 'row')})`}
          hint="A spreadsheet that opens the service's data may run such text as a formula. Asked for each post; the audit records the choice."
        >
          <RadioGroup
            value={wb.formulaText ?? ''}
            onChange={(_, d) => wb.setFormulaText(d.value as FormulaText)}
            disabled={busy !== null}
            data-testid="wb-formula-text"
          >
            <Radio value="neutralised" label="Add a leading ' so it stays text (OWASP)" />
            <Radio value="as typed" label="Send as typed" />
          </RadioGroup>
        </Field>
      )}
      {busy && !progress && <Caption1 role="status">{busy}</Caption1>}
      {progress && (
        <div role="status" data-testid="wb-progress">
          <ProgressBar
            thickness="large"
            value={progress.total ? progress.finished / progress.total : undefined}
          />
          <Caption1>
            {progress.finished} of {counted(progress.total, 'row')} · {progress.counts.created + progress.counts.done}{' '}
            done · {progress.counts.failed} failed · {progress.counts.unknown} unknown
          </Caption1>
          <div>
            <Button onClick={wb.cancelPost} data-testid="wb-cancel">
              Cancel
            </Button>
          </div>
        </div>
      )}
      {confirm?.confirmation && (
        <ConfirmDialog
          open
          environment={confirm.confirmation.environment}
          rows={confirm.confirmation.rows}
          message={confirm.confirmation.message}
          onCancel={wb.dismissConfirm}
          onConfirm={wb.confirmPost}
        />
      )}
    </>
  );
}

/**
 * How a post is sent and recorded (rows at once, the audit record): below the problems, which a 350 px
 * pane shows first.
 */
export function PostOptions({ wb }: { wb: Writeback }) {
  const s = usePanelStyles();
  const { busy } = wb;
  if (!wb.table) return null;
  return (
    <div className={s.bar}>
      <Field label="At once" hint="Rows sent at the same time (1 to 16)">
        <Input
          title="How many rows are sent to the service at the same time: more is faster, fewer is gentler on a busy service"
          className={s.narrow}
          type="number"
          min={1}
          max={16}
          value={String(wb.concurrency)}
          onChange={(_, d) => wb.setConcurrency(Math.min(16, Math.max(1, Number(d.value) || 1)))}
          disabled={busy !== null}
        />
      </Field>
      <Field hint={`One row per result on the sheet "${AUDIT_SHEET}": who, when, where, outcome`}>
        <Checkbox
          label="Audit record"
          title="After each post, append who posted (the signed-in person, or a key fingerprint; never the key), when, to which environment, and each row's result to an audit table in this workbook"
          checked={wb.audit}
          onChange={(_, d) => wb.setAudit(Boolean(d.checked))}
          disabled={busy !== null}
        />
      </Field>
    </div>
  );
}
