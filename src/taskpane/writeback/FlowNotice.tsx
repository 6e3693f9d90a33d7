import type { FlowAvailability } from '../../writeback';
import { lackingText, skippedText } from '../../writeback';
import { ErrorBar } from '../components/ErrorBar';
import { FoldedNotice } from '../components/FoldedNotice';

export interface Props {
  flowTitle: string;
  environment: string;
  availability: FlowAvailability;
}

/**
 * What the chosen flow can do on this environment, said before a template is made: unavailable (and what
 * the admin does), a path that is only assumed (confirmed at Post), the datasets it lacks and the steps it skips.
 * The last three are folded to their titles, so the template and the Validate and Post buttons stay in view.
 */
export function FlowNotice({ flowTitle, environment, availability }: Props) {
  const { post, lacking } = availability;
  const skipped = availability.skipped ?? [];
  return (
    <>
      {post.kind === 'unavailable' && (
        <ErrorBar
          intent="error"
          testId="wb-unavailable"
          message={{ title: `${flowTitle}: unavailable on ${environment}`, detail: post.message }}
        />
      )}
      {post.kind === 'confirm' && (
        <FoldedNotice
          testId="wb-assumed"
          message={{
            title: 'You will be asked to confirm before posting',
            detail: post.message,
          }}
        />
      )}
      {post.kind !== 'unavailable' && lacking.length > 0 && (
        <FoldedNotice
          testId="wb-lacking"
          message={{
            title: `Before you fill a template: ${environment} lacks ${lacking.length === 1 ? 'a dataset' : `${lacking.length} datasets`} this flow reads`,
            detail: 'The flow works without, with these limits:',
            steps: lacking.map(lackingText),
          }}
        />
      )}
      {post.kind !== 'unavailable' && skipped.length > 0 && (
        <FoldedNotice
          testId="wb-skipped"
          message={{
            title: `${flowTitle} on ${environment}: ${skipped.length === 1 ? 'one step is' : `${skipped.length} steps are`} skipped`,
            detail: "The flow posts without it, and each row's Result says so:",
            steps: skipped.map(skippedText),
          }}
        />
      )}
    </>
  );
}
