import { ErrorBar } from '../components/ErrorBar';
import type { Notice } from './useWriteback';

/** The outcome of the last action: a post's counts, a new template, or what went wrong. */
export function ResultsPanel({ notice }: { notice: Notice | null }) {
  return notice && <ErrorBar intent={notice.intent} testId={notice.testId} message={notice.message} />;
}
