/**
 * Writes src/client/sha256-rounds.ts: SHA-256's compression function with its 64 rounds written out.
 * `node scripts/sha256-rounds.js` makes it again; test/loading/sha256.test.ts holds the file equal to what
 * this writes, and the file's digests equal to node:crypto's.
 */
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

// FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
  0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
  0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

const rotr = (x, n) => `((${x} >>> ${n}) | (${x} << ${32 - n}))`;

function source() {
  const lines = [];
  for (let t = 0; t < 16; t++) lines.push(`    let w${t} = view.getInt32(at + ${4 * t});`);
  lines.push('    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;', '    let x = 0, y = 0;');
  for (let t = 0; t < 64; t++) {
    // Round t's a..h are the names shifted by t: nothing is moved between rounds.
    const [A, B, C, D, E, F, G, H] = Array.from({ length: 8 }, (_, i) => 'abcdefgh'[(i - (t % 8) + 8) % 8]);
    const w = `w${t % 16}`;
    if (t >= 16) {
      lines.push(`    x = w${(t - 15) % 16};`, `    y = w${(t - 2) % 16};`);
      lines.push(`    ${w} = (${w} + (${rotr('x', 7)} ^ ${rotr('x', 18)} ^ (x >>> 3)) + w${(t - 7) % 16} + (${rotr('y', 17)} ^ ${rotr('y', 19)} ^ (y >>> 10))) | 0;`);
    }
    lines.push(`    ${H} = (${H} + (${rotr(E, 6)} ^ ${rotr(E, 11)} ^ ${rotr(E, 25)}) + (${G} ^ (${E} & (${F} ^ ${G}))) + ${K[t] | 0} + ${w}) | 0;`);
    lines.push(`    ${D} = (${D} + ${H}) | 0;`);
    lines.push(`    ${H} = (${H} + (${rotr(A, 2)} ^ ${rotr(A, 13)} ^ ${rotr(A, 22)}) + ((${A} & ${B}) | (${C} & (${A} | ${B})))) | 0;`);
  }
  return `// Written by scripts/sha256-rounds.js: do not edit by hand.
/**
 * SHA-256's compression (FIPS 180-4, 6.2.2) of the 64-byte blocks of view[from, to) into state, with the
 * 64 rounds written out: the message schedule lives in 16 locals and each round renames a..h instead of
 * moving them, so V8 keeps the state in registers. About twice the speed of the loop with a schedule array.
 */
export function compress(state: Int32Array, view: DataView, from: number, to: number): void {
  let h0 = state[0]!, h1 = state[1]!, h2 = state[2]!, h3 = state[3]!, h4 = state[4]!, h5 = state[5]!, h6 = state[6]!, h7 = state[7]!;
  for (let at = from; at < to; at += 64) {
${lines.join('\n')}
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  state[0] = h0;
  state[1] = h1;
  state[2] = h2;
  state[3] = h3;
  state[4] = h4;
  state[5] = h5;
  state[6] = h6;
  state[7] = h7;
}
`;
}

const target = join(__dirname, '..', 'src', 'client', 'sha256-rounds.ts');
if (require.main === module) writeFileSync(target, source());
module.exports = { source, target };
