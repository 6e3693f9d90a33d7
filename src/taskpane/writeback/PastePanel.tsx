import { Button, Field, Textarea } from '@fluentui/react-components';
import type { Writeback } from './useWriteback';

/** Preview mode only: rows pasted as tab-separated text, header line first, added to the table. */
export function PastePanel({ wb }: { wb: Writeback }) {
  return (
    <Field label="Preview: paste rows (tab-separated, header line first)">
      <Textarea value={wb.paste} onChange={(_, d) => wb.setPaste(d.value)} resize="vertical" data-testid="wb-paste" />
      <div>
        <Button
          size="small"
          onClick={wb.addPasted}
          disabled={wb.busy !== null || wb.paste.trim() === ''}
          data-testid="wb-paste-add"
        >
          Add rows
        </Button>
      </div>
    </Field>
  );
}
