import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
} from '@fluentui/react-components';
import { counted } from '../../words/count';

// A label never breaks inside a button: "Do not post" on two lines read as two choices. Where the pane is
// too narrow for both side by side, Fluent stacks the buttons instead.
const useStyles = makeStyles({ button: { whiteSpace: 'nowrap', flexShrink: 0 } });

export interface Props {
  open: boolean;
  environment: string;
  rows: number;
  message: string;
  onConfirm(): void;
  onCancel(): void;
}

/** The explicit confirmation before posting to production (or to another environment than the table's). */
export function ConfirmDialog({ open, environment, rows, message, onConfirm, onCancel }: Props) {
  const s = useStyles();
  return (
    <Dialog open={open} modalType="alert" onOpenChange={(_, d) => !d.open && onCancel()}>
      <DialogSurface data-testid="confirm-post">
        <DialogBody>
          <DialogTitle>Post to {environment}?</DialogTitle>
          <DialogContent>{message}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" className={s.button} onClick={onCancel}>
              Do not post
            </Button>
            <Button
              appearance="primary"
              className={s.button}
              onClick={onConfirm}
              data-testid="confirm-post-button"
            >
              Post {counted(rows, 'row')} to {environment}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
