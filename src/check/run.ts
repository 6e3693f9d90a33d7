import type { Access } from '../catalog';
import { isApiError, type DataRecord, type GrcClient } from '../client';
import { forbiddenFix, notFoundFix, refusedKeyFix, sandboxGapFix } from './advice';
import { PASSING, READ_ONLY_NOTICE, type CheckReport, type DatasetCheck } from './report';

/** One dataset as the environment's catalogue has it. */
export interface CheckTarget {
  id: string;
  title: string;
  path: string;
  pathSource: DatasetCheck['pathSource'];
  /** A documented dataset the binding's API file does not list (kept at the spec's path). */
  notInFile?: boolean;
  access: Access;
  /** Set when the binding lacks the dataset or leaves it ambiguous. */
  unavailable?: { reason: string; message: string };
}

export interface CheckInput {
  client: Pick<GrcClient, 'download'>;
  targets: readonly CheckTarget[];
  target: CheckReport['target'];
  /** The address the service sees, when known (the relay's egressIp). */
  callerIp: string | null;
}

/**
 * Reads the first record of every documented or bound dataset, one at a time, and cancels each download
 * there. A 401 is about the key and the address, not the dataset: the first one ends the check (every
 * later call would be refused too, and each would be listed again as a requested address).
 */
export async function runCheck(input: CheckInput): Promise<CheckReport> {
  const { client, target, callerIp } = input;
  const datasets: DatasetCheck[] = [];
  let refused: DatasetCheck | undefined;
  for (const t of input.targets) {
    const skip = reasonNotToCheck(t);
    if (t.unavailable) datasets.push(base(t, 'not-in-binding', t.unavailable.message));
    else if (skip) datasets.push(base(t, 'not-checked', skip));
    else if (refused)
      datasets.push(
        base(t, 'not-checked', 'Not checked: the service refused the key on an earlier dataset (401).'),
      );
    else {
      const result = await checkOne(client, t, target.via, callerIp);
      if (result.result === 'refused-key') refused = result;
      datasets.push(result);
    }
  }
  const checked = datasets.filter((d) => d.result !== 'not-checked' && d.result !== 'not-in-binding');
  const failed = datasets.filter((d) => !PASSING.has(d.result)).length;
  return {
    readOnly: true,
    notice: READ_ONLY_NOTICE,
    target,
    authentication: refused
      ? { ok: false, message: refused.fix ?? refused.message, callerIp }
      : {
          ok: checked.length > 0,
          message: checked.length
            ? 'The service accepted the key.'
            : 'Nothing was checked: no dataset of this environment has a documented or bound path.',
          callerIp,
        },
    datasets,
    summary: {
      checked: checked.length,
      passed: checked.length - failed,
      failed,
      notChecked: datasets.length - checked.length,
    },
    ok: failed === 0 && checked.length > 0,
  };
}

function reasonNotToCheck(t: CheckTarget): string | null {
  if (t.pathSource === 'assumed')
    return `Not checked: the path ${t.path} is assumed (the spec does not show it and no binding gives it).`;
  if (t.path.includes('{'))
    return 'Not checked: this dataset is read per record (its path needs a GUID), which a read-only check does not pick.';
  return null;
}

function base(t: CheckTarget, result: DatasetCheck['result'], message: string): DatasetCheck {
  return {
    id: t.id,
    title: t.title,
    path: t.path,
    pathSource: t.pathSource,
    ...(t.notInFile ? { notInFile: true } : {}),
    result,
    firstRecordFits: null,
    message,
  };
}

async function checkOne(
  client: CheckInput['client'],
  t: CheckTarget,
  via: 'relay' | 'direct',
  callerIp: string | null,
): Promise<DatasetCheck> {
  const controller = new AbortController();
  let first: DataRecord | undefined;
  try {
    const { count } = await client.download(t.id, {
      signal: controller.signal,
      evidence: false,
      onBatch: (records) => {
        first ??= records[0];
        // The first record is all the check needs; cancelling stops the service's answer there.
        if (first) controller.abort();
      },
    });
    if (count === 0)
      return {
        ...base(t, 'empty', 'Answers (200), with no records: nothing to compare with the schema.'),
        status: 200,
      };
  } catch (e) {
    if (!isApiError(e)) throw e;
    if (!(e.code === 'cancelled' && first)) return fromError(t, e, via, callerIp);
  }
  return {
    ...base(t, 'answers', 'Answers (200); the first record fits the schema.'),
    status: 200,
    firstRecordFits: true,
  };
}

function fromError(
  t: CheckTarget,
  e: import('../client').ApiError,
  via: 'relay' | 'direct',
  callerIp: string | null,
): DatasetCheck {
  const status = e.status === undefined ? {} : { status: e.status };
  switch (e.code) {
    case 'invalid-credentials':
      return {
        ...base(t, 'refused-key', 'The service refused the key (401).'),
        ...status,
        fix: refusedKeyFix(callerIp, via),
      };
    case 'forbidden':
      return {
        ...base(t, 'forbidden', 'Forbidden to execute action (403): the key may not read this dataset.'),
        ...status,
        fix: forbiddenFix(t.access),
      };
    case 'not-found':
      // The practice sandbox says the gap is its own: the service may well have the dataset.
      if (e.sandboxGap === 'no-data')
        return {
          ...base(t, 'sandbox-lacks', `The practice sandbox has no data for it (404): only your own service has this dataset.`),
          ...status,
          fix: sandboxGapFix('no-data', t.id),
        };
      if (e.sandboxGap === 'no-route')
        return {
          ...base(t, 'not-found', `The practice sandbox has nothing at ${t.path} (404): it runs another binding than this check.`),
          ...status,
          fix: sandboxGapFix('no-route', t.id),
        };
      return {
        ...base(t, 'not-found', `The service has nothing at ${t.path} (404).`),
        ...status,
        fix: notFoundFix(t, via),
      };
    case 'bad-answer': {
      // The client names the first record that does not fit: anything after the first means the first fitted.
      const n = e.details?.[0]?.record;
      return {
        ...base(t, 'bad-shape', e.message),
        ...status,
        firstRecordFits: n === undefined ? null : n !== 1,
        fix: 'The service answers with another record shape than the catalogue expects: import its current Swagger file so the binding maps the property names (docs/binding.md).',
      };
    }
    default:
      return { ...base(t, 'failed', e.message), ...status };
  }
}
