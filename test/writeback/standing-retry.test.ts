import { ApiError } from '../../src/client/api-error';
import { downloadRecords, type WritebackApi } from '../../src/writeback/api';

/** Reading standing data under 429s: Retry-After is waited out as posting does, not counted as failures. */
function busyApi(busyAnswers: number, retryAfterMs: number | undefined, code: 'rate-limited' | 'unavailable' = 'rate-limited') {
  let calls = 0;
  const api: WritebackApi = {
    async download() {
      calls++;
      if (calls <= busyAnswers)
        throw new ApiError({ code, sent: 'yes', message: 'busy', status: code === 'rate-limited' ? 429 : 503, retryAfterMs });
      return { records: [{ Id: 'a' }] };
    },
    send: async () => {
      throw new Error('reads only');
    },
  };
  return { api, calls: () => calls };
}

describe('downloadRecords under 429/503', () => {
  it('keeps reading after more than four busy answers, waiting each Retry-After', async () => {
    const { api, calls } = busyApi(7, 2_000);
    const waits: number[] = [];
    const records = await downloadRecords(api, 'tasks', undefined, async (ms) => void waits.push(ms));
    expect(records).toEqual([{ Id: 'a' }]);
    expect(calls()).toBe(8);
    expect(waits).toEqual(Array(7).fill(2_000));
  });

  it('a 503 with Retry-After is waited out too', async () => {
    const { api } = busyApi(5, 1_000, 'unavailable');
    const waits: number[] = [];
    await expect(downloadRecords(api, 'tasks', undefined, async (ms) => void waits.push(ms))).resolves.toHaveLength(1);
    expect(waits).toEqual(Array(5).fill(1_000));
  });

  it('gives up on a Retry-After longer than 30 s, and once two minutes of waits are spent', async () => {
    const long = busyApi(1, 60_000);
    await expect(downloadRecords(long.api, 'tasks', undefined, async () => undefined)).rejects.toMatchObject({ code: 'rate-limited' });
    expect(long.calls()).toBe(1);
    const many = busyApi(100, 20_000);
    const waits: number[] = [];
    await expect(downloadRecords(many.api, 'tasks', undefined, async (ms) => void waits.push(ms))).rejects.toMatchObject({ code: 'rate-limited' });
    expect(waits.reduce((a, b) => a + b, 0)).toBe(120_000);
  });

  it('without Retry-After, four attempts as before', async () => {
    const { api, calls } = busyApi(10, undefined);
    await expect(downloadRecords(api, 'tasks', undefined, async () => undefined)).rejects.toMatchObject({ code: 'rate-limited' });
    expect(calls()).toBe(4);
  });
});
