import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { nodeLineDigests } from '../../src/cli/digest';
import { Sha256, cellsLine, hexOf, sha256Cells, sha256Hex, sha256Text } from '../../src/loading/sha256';

const node = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
const streamed = (text: string) => new Sha256().update(new TextEncoder().encode(text)).hex();

/** A seeded generator (mulberry32), so a failing text can be made again. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Text from every UTF-8 length class: ASCII, 2-byte (é), 3-byte (中), pairs (emoji), lone surrogates. */
function randomText(next: () => number, length: number): string {
  const pool = ['a', 'Z', '0', ' ', '"', '\n', 'é', 'ß', '中', '€', '😀', '𝄞', '\ud800', '\udfff', '\u0000', '\uffff'];
  const out: string[] = [];
  let units = 0;
  while (units < length) {
    // Mostly ASCII, as a row's line is.
    const piece = next() < 0.7 ? String.fromCharCode(32 + Math.floor(next() * 95)) : pool[Math.floor(next() * pool.length)]!;
    out.push(piece);
    units += piece.length;
  }
  return out.join('').slice(0, length);
}

describe('SHA-256', () => {
  it('runs the rounds scripts/sha256-rounds.js writes (the file is not edited by hand)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const rounds = require('../../scripts/sha256-rounds.js') as { source(): string; target: string };
    expect(readFileSync(rounds.target, 'utf8')).toBe(rounds.source());
  });

  it('gives the NIST test vectors (FIPS 180-4 examples), one-shot and streamed', () => {
    const vectors: [string, string][] = [
      ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
      ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
      [
        'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
        'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
      ],
      ['a'.repeat(1_000_000), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0'],
    ];
    for (const [text, digest] of vectors) {
      expect([text.length, sha256Hex(text)]).toEqual([text.length, digest]);
      expect([text.length, streamed(text)]).toEqual([text.length, digest]);
      expect([text.length, new Sha256().updateText(text).hex()]).toEqual([text.length, digest]);
    }
  });

  it('encodes multi-byte UTF-8 and lone surrogates (as U+FFFD) as node:crypto hashes Buffer.from(text)', () => {
    expect(Buffer.from('\ud800', 'utf8')).toEqual(Buffer.from([0xef, 0xbf, 0xbd]));
    const texts = ['é', 'Zürich – “quoted”', '中文字符', '😀', 'a😀b𝄞c', '\ud800', 'x\udc00y', '\ud83d', 'end\ud83d', '\udfff\ud800', '😀'.repeat(5000), '中'.repeat(30_000), `${'a'.repeat(16_383)}😀${'b'.repeat(20_000)}`];
    for (const text of texts) {
      expect([text.slice(0, 20), sha256Hex(text)]).toEqual([text.slice(0, 20), node(text)]);
      expect([text.slice(0, 20), new Sha256().updateText(text).hex()]).toEqual([text.slice(0, 20), node(text)]);
    }
  });

  it('hashes random texts of every length from 0 to 5,000 like node:crypto', () => {
    const next = random(18);
    // Each text a piece of one long random text at a random place: a piece may start or end inside a
    // surrogate pair, which makes lone surrogates too.
    const source = randomText(next, 100_000);
    const wrong: number[] = [];
    for (let n = 0; n <= 5000; n++) {
      const at = Math.floor(next() * (source.length - n));
      const text = source.slice(at, at + n);
      if (sha256Hex(text) !== node(text)) wrong.push(n);
    }
    expect(wrong).toEqual([]);
  });

  it('pads right at the block boundaries (55, 56, 63, 64, 119, 120 bytes), in ASCII and in multi-byte text', () => {
    for (const n of [0, 1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 121, 127, 128]) {
      const ascii = 'q'.repeat(n);
      expect([n, sha256Hex(ascii)]).toEqual([n, node(ascii)]);
      // The same byte length reached with 2- and 3-byte characters.
      const mixed = '中'.repeat(Math.floor(n / 3)) + 'é'.repeat(Math.floor((n % 3) / 2)) + 'q'.repeat(n % 3 % 2);
      expect([n, Buffer.byteLength(mixed), sha256Hex(mixed)]).toEqual([n, n, node(mixed)]);
    }
  });

  it('gives the same digest after a long text grew the shared buffer (no bytes left over from before)', () => {
    const short = 'row 1';
    const before = sha256Hex(short);
    sha256Hex('中'.repeat(10_000));
    expect(sha256Hex(short)).toBe(before);
    expect(sha256Hex(short)).toBe(node(short));
  });

  it('takes bytes in uneven pieces, across block boundaries, as a stream', () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_000]) {
      const data = new Uint8Array(n).map((_, i) => (i * 31 + n) & 0xff);
      for (const piece of [1, 37, 64, 200]) {
        const ours = new Sha256();
        for (let i = 0; i < n; i += piece) ours.update(data.subarray(i, i + piece));
        expect([n, piece, ours.hex()]).toEqual([n, piece, createHash('sha256').update(data).digest('hex')]);
      }
    }
  });

  it('hashes a row of cells as node:crypto hashes JSON.stringify of it: escapes, every UTF-8 length, numbers, long and empty rows', () => {
    const next = random(27);
    const source = randomText(next, 50_000);
    const numbers = [0, -0, 1, -1, 9, 10, -10, 99_999, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 0.1, 1 / 3, 1e21, 1e-7, -123.456, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE, 45_000.5];
    const rows: (string | number | boolean | null)[][] = [[], [null], [''], [true, false, null], numbers, ['a"b', 'back\\slash', 'tab\there', '\u0000\u001f\u007f', 'é', '😀', '\ud800', 'x\udc00'], ['q'.repeat(100_000), 7], ['中'.repeat(40_000)]];
    for (let r = 0; r < 300; r++) {
      const row: (string | number | boolean | null)[] = [];
      for (let c = Math.floor(next() * 20); c > 0; c--) {
        const kind = next();
        if (kind < 0.6) {
          const n = Math.floor(next() * 80);
          const at = Math.floor(next() * (source.length - n));
          row.push(source.slice(at, at + n));
        } else if (kind < 0.8) row.push(numbers[Math.floor(next() * numbers.length)]! * (next() < 0.5 ? 1 : 3.7));
        else if (kind < 0.9) row.push(next() < 0.5);
        else row.push(null);
      }
      rows.push(row);
    }
    // Written at an offset of a larger buffer, as into a digest list's chunk.
    const cells = (row: (string | number | boolean | null)[]) => {
      const out = new Uint8Array(48);
      sha256Cells(row, out, 8);
      return hexOf(out, 8);
    };
    const wrong = rows.map((row, i) => [i, cells(row) === node(JSON.stringify(row))] as const).filter(([, same]) => !same);
    expect(wrong).toEqual([]);
    // The command line's row digests (node:crypto over the same canonical line) are the same digests.
    const lines = nodeLineDigests();
    const byNode = (row: (string | number | boolean | null)[]) => {
      const out = new Uint8Array(48);
      lines.add(cellsLine(row), out, 8);
      return hexOf(out, 8);
    };
    expect(rows.filter((row) => byNode(row) !== cells(row))).toEqual([]);
    // After a long row grew the shared buffer, a short one hashes as before.
    expect(cells(['row 1', 2])).toBe(node('["row 1",2]'));
    const text = new Uint8Array(32);
    sha256Text('中'.repeat(20_000), text, 0);
    expect(hexOf(text)).toBe(node('中'.repeat(20_000)));
  });
});
