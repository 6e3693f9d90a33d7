/**
 * The relay's hashing thread (started by answer-hasher.ts): the SHA-256, length and record count of the
 * answers the relay streams, computed off its event loop. Batches of one answer come in order; each is
 * acknowledged with its buffer (the relay bounds what it has sent and not yet seen hashed, and fills the
 * buffer again), the last with the figures.
 */
import { createHash, type Hash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { FromThread, ToThread } from './answer-hasher';
import { RecordCounter } from './record-count';

interface Answer {
  hash: Hash;
  counter: RecordCounter | null;
  length: number;
}

const answers = new Map<number, Answer>();
const port = parentPort!;

port.on('message', (m: ToThread) => {
  if (m.bytes === null) {
    answers.delete(m.id);
    return;
  }
  let answer = answers.get(m.id);
  if (!answer) {
    answer = { hash: createHash('sha256'), counter: m.count ? new RecordCounter() : null, length: 0 };
    answers.set(m.id, answer);
  }
  answer.hash.update(m.bytes);
  answer.counter?.push(m.bytes);
  answer.length += m.bytes.length;
  let reply: FromThread = { id: m.id, bytes: m.bytes };
  if (m.end) {
    answers.delete(m.id);
    reply = { ...reply, sha256: answer.hash.digest('hex'), length: answer.length, records: answer.counter?.records ?? 0 };
  }
  // The buffer goes back to be filled again.
  port.postMessage(reply, [m.bytes.buffer as ArrayBuffer]);
});
