import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { CanonicalLines } from '../../src/loading/canonical-bytes';
import { canonicalJson, fingerprinter } from '../../src/loading/fingerprint';
import { Sha256 } from '../../src/loading/sha256';

describe('fingerprints of what a load received', () => {
  it('hashes like SHA-256 for every length around the block boundaries', () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_000]) {
      const data = new Uint8Array(n).map((_, i) => (i * 31 + n) & 0xff);
      const ours = new Sha256();
      // In uneven pieces, as batches arrive.
      for (let i = 0; i < n; i += 37) ours.update(data.subarray(i, i + 37));
      expect([n, ours.hex()]).toEqual([n, createHash('sha256').update(data).digest('hex')]);
    }
  });

  it('writes records in canonical JSON: keys sorted at every depth, nothing else changed', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'é\n"' }], c: true }, e: 1.5e-7 })).toBe('{"a":{"c":true,"d":[3,{"y":"é\\n\\"","z":null}]},"b":1,"e":1.5e-7}');
  });

  it('writes the canonical lines as bytes exactly as canonicalJson and TextEncoder do', () => {
    const records: unknown[] = [
      { b: 1, a: { d: [3, { z: null, y: 'é\n"' }], c: true }, e: 1.5e-7 },
      { n: [-0, 0, -1, 2147483647, -2147483648, 2 ** 31, 2 ** 53, -(2 ** 40), 1e21, 0.1, -2.5, 1e-7], f: false, u: undefined },
      { s: ['', 'plain ~ text', 'tab\t', '\u0000\u001f\u007f', 'back\\slash', 'Zürich – “quoted” 😀', '\ud800 lone', 'x'.repeat(70_000)] },
      { 'é key': 1, 'a"b': 2, B: 3, a: 4, '': 5, nested: { b: { d: 1, c: [] }, a: {} } },
      { b: 1, a: { d: [3, { z: null, y: 'é\n"' }], c: true }, e: 1.5e-7 },
      [1, 'two', null, { y: 1, x: 2 }],
      'top',
      42,
      null,
    ];
    const lines = new CanonicalLines();
    const expected = new TextEncoder().encode(records.map((r) => `${canonicalJson(r)}\n`).join(''));
    expect(Buffer.from(lines.lines(records)).equals(Buffer.from(expected))).toBe(true);
    // The buffer is reused: a second batch's bytes are its own.
    expect(Buffer.from(lines.lines(records.slice(1, 2))).toString()).toBe(`${canonicalJson(records[1])}\n`);
  });

  it('can be recomputed from the service answer by a short Python script an auditor writes', async () => {
    const records = [
      { Id: 'b3f0', Name: 'Risk one', Score: 4, Tags: ['x', 'y'], Owner: { Name: 'Ann', Mail: null } },
      { Id: 'c4a1', Name: 'Zürich – “quoted”', Score: 2.5, Tags: [], Owner: null },
    ];
    const fp = fingerprinter();
    fp.add(records.slice(0, 1));
    fp.add(records.slice(1));
    const script = `import hashlib, json, sys
h = hashlib.sha256()
for r in json.load(sys.stdin):
    h.update((json.dumps(r, sort_keys=True, separators=(',', ':'), ensure_ascii=False) + '\\n').encode('utf-8'))
print(h.hexdigest())`;
    const python = execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(records) }).toString().trim();
    await expect(fp.done()).resolves.toEqual({ method: 'sha256/jcs-lines/1', count: 2, sha256: python });
  });
});
