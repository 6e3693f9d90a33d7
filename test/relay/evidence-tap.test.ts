import { createHash } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { ReadStatement, WriteReceipt } from '../../src/contracts/evidence';
import { AnswerTap, type ReadBase } from '../../src/relay/evidence-tap';

/**
 * The tap of a relay that hashes on its event loop: a small answer is held and hashed in one call at its
 * end, a larger one as it passes once past 64 KiB. Both must sign the figures of exactly the bytes that
 * passed, however the service cut them. (The hashing thread is covered with a real relay in evidence.test.ts.)
 */
const BASE: ReadBase = {
  kind: 'read',
  environment: { name: 'acc', host: 'grc.example.com' },
  who: { kind: 'key', fingerprint: 'key:abc' },
  rule: 'personal key',
  requestId: 'r-1',
  dataset: 'risk',
  path: '/api/directdata/v3/risk',
};

const answerOf = (records: number) =>
  Buffer.from(JSON.stringify(Array.from({ length: records }, (_, i) => ({ Id: `R-${i}`, Name: 'a "risk", [x]' }))));

function signedFigures(bytes: Buffer, size: number): ReadStatement {
  const issued: (ReadStatement | WriteReceipt)[] = [];
  const sink = { issue: (_id: string, _owner: string, p: ReadStatement | WriteReceipt) => issued.push(p), refuse() {} };
  const tap = new AnswerTap(sink, null, new ServerResponse(new IncomingMessage(new Socket())), 'id-1', 'key:x', BASE);
  tap.start(200, { 'content-type': 'application/json' });
  for (let at = 0; at < bytes.length; at += size) expect(tap.data(bytes.subarray(at, at + size))).toBe(true);
  expect(tap.end()).toBeUndefined();
  expect(issued).toHaveLength(1);
  return issued[0] as ReadStatement;
}

describe('AnswerTap on the event loop', () => {
  it.each([
    ['empty', Buffer.alloc(0), [1]],
    ['small, in one chunk or many', answerOf(8), [1, 7, 1 << 20]],
    ['just past 64 KiB', answerOf(1_700), [1_000, 16_384, 65_536, 65_537, 1 << 20]],
  ])('signs the hash, length and records of an answer %s', (_name, bytes, sizes) => {
    const records = bytes.length ? (JSON.parse(bytes.toString('utf8')) as unknown[]).length : 0;
    for (const size of sizes) {
      const read = signedFigures(bytes, size);
      expect([size, read.sha256, read.length, read.records]).toEqual([
        size,
        createHash('sha256').update(bytes).digest('hex'),
        bytes.length,
        records,
      ]);
      expect(read).toMatchObject({ ...BASE, status: 200 });
    }
  });
});
