import { readdirSync } from 'node:fs';
import { answerFor } from '../../src/sandbox/bound';
import { loadApiFile } from '../../src/sandbox/file/document';
import { sampleOf } from '../../src/sandbox/file/sample';
import { corpusFile } from './customer-binding';

/**
 * What the bound sandbox makes up in a customer's shape is valid against that customer's own file: the
 * answer of every write and a record of every list, for every operation of every corpus file.
 */
const FILES = readdirSync(corpusFile('')).filter((f) => /\.(json|yaml)$/.test(f));
const G = '3f1c2a9e-8d7b-4c2e-9a51-0f6b2d7c1e44';

describe.each(FILES)('%s', (name) => {
  it("every documented answer body the sandbox makes passes the file's schema, with the id where the file keeps it", async () => {
    const file = await loadApiFile(corpusFile(name));
    const invalid: string[] = [];
    for (const op of file.operations) {
      if (op.method === 'GET' || op.answer.schema === undefined) continue;
      const reply = answerFor(file, op, undefined, { Id: G }, 201, `/api${op.path}`, undefined);
      expect(reply.status).toBe(op.answer.status);
      const check = file.checkAnswer(op.answer.schema);
      if (!check(reply.body)) invalid.push(`${op.method} ${op.path}: ${JSON.stringify(check.errors)}`);
      if (reply.body && typeof reply.body === 'object' && Object.keys(reply.body).length)
        expect(JSON.stringify(reply.body)).toContain(G);
    }
    expect(invalid).toEqual([]);
  });

  it("every record the sandbox fills for a list passes the file's record schema", async () => {
    const file = await loadApiFile(corpusFile(name));
    const lists = file.operations.filter((o) => o.record !== undefined);
    expect(lists.length).toBeGreaterThan(0);
    for (const op of lists) {
      const check = file.checkAnswer(op.record);
      const record = sampleOf(file.answerDoc, op.record, { all: true, seed: op.path });
      expect([op.path, check(record), check.errors]).toEqual([op.path, true, null]);
    }
  });
});
