import { Readable } from 'node:stream';

const CHUNK = 64 * 1024;

/**
 * A JSON array streamed from an iterator of records: records are serialised only as the reader asks for
 * more (backpressure), in chunks of about 64 KiB, so a dataset of any size never sits in memory as one string.
 */
export function jsonArrayStream(
  records: Iterator<unknown>,
  /** Text around the array: a customer's envelope (`{"data":` ... `}`). */
  around: { head: string; tail: string } = { head: '', tail: '' },
): Readable {
  let opened = false;
  let first = true;
  let done = false;
  return new Readable({
    read() {
      while (!done) {
        let chunk = opened ? '' : `${around.head}[`;
        opened = true;
        while (chunk.length < CHUNK) {
          const r = records.next();
          if (r.done) {
            chunk += `]${around.tail}`;
            done = true;
            break;
          }
          chunk += (first ? '' : ',') + JSON.stringify(r.value);
          first = false;
        }
        if (!this.push(chunk)) return;
      }
      this.push(null);
    },
  });
}
