import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';

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
  return (
    <Dialog open={open} modalType="alert" onOpenChange={(_, d) => !d.open && onCancel()}>
      <DialogSurface data-testid="confirm-post">
        <DialogBody>
          <DialogTitle>Post to {environment}?</DialogTitle>
          <DialogContent>{message}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onCancel}>
              Do not post
            </Button>
            <Button appearance="primary" onClick={onConfirm} data-testid="confirm-post-button">
              Post {rows} row{rows === 1 ? '' : 's'} to {environment}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
