import { createHash } from 'node:crypto';
import { checkReceipts } from '../../src/evidence/receipts-check';
import { AUDIT_TABLE, RELAY_RECEIPT, SENT_BODIES, writeAudit } from '../../src/writeback/audit';
import { checkChain } from '../../src/writeback/auditchain';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import { created, failed, runSummary } from '../support/run-summary';

const summary = runSummary([created(0), failed(1)]);
const at = (r: number) => `'Write-back audit'!A${r + 2}`;

async function chainOfThree() {
  const wb = createMemoryWorkbook();
  await writeAudit(wb, summary, 'key:0123456789ab');
  await writeAudit(wb, { ...summary, outcomes: summary.outcomes.slice(0, 1) }, 'key:0123456789ab');
  return wb;
}

describe('the audit chain', () => {
  it('links each entry to the one before, across runs, by the documented canonical form', async () => {
    const wb = await chainOfThree();
    const { columns, rows } = await wb.readRows(AUDIT_TABLE);
    expect(rows).toHaveLength(3);
    const p = columns.indexOf('Previous hash');
    const h = columns.indexOf('Hash');
    expect(rows[0]![p]).toBe('');
    expect(rows[1]![p]).toBe(rows[0]![h]);
    expect(rows[2]![p]).toBe(rows[1]![h]);
    // Recomputed as docs/workbook.md says: the cells (empty as null, numbers at 15 significant digits),
    // then the previous hash, as JSON.
    const canonical = (c: unknown) => (c === '' ? null : typeof c === 'number' ? Number(c.toPrecision(15)) : c);
    const text = JSON.stringify([...rows[1]!.slice(0, p).map(canonical), rows[1]![p]]);
    expect(rows[1]![h]).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    expect(await checkChain({ columns, rows }, at)).toEqual({ entries: 3, unchained: 0, breaks: [] });
    expect(await wb.getSetting('grc-sheets.audit-head')).toEqual({ entries: 3, hash: rows[2]![h] });
  });

  it('finds an edited entry and a removed one', async () => {
    const wb = await chainOfThree();
    const { columns, rows } = await wb.readRows(AUDIT_TABLE);
    const edited = rows.map((r) => [...r]);
    edited[1]![columns.indexOf('Result')] = 'created';
    expect((await checkChain({ columns, rows: edited }, at)).breaks).toEqual([expect.objectContaining({ row: 1, problem: 'edited', message: expect.stringContaining("'Write-back audit'!A3 was edited") })]);
    const removed = [rows[0]!, rows[2]!];
    expect((await checkChain({ columns, rows: removed }, at)).breaks).toEqual([expect.objectContaining({ row: 1, problem: 'unlinked' })]);
  });

  it('an audit table chained before the Relay receipt column keeps its layout, and its chain goes on', async () => {
    const wb = createMemoryWorkbook();
    const sheet = await wb.addSheet('Write-back audit');
    const old = ['Run started', 'Run finished', 'Who', 'Environment', 'Flow', 'Table', 'Sheet row', 'Result', 'GUID', 'Message', 'Formula-like text', 'Signed-in person', 'Person ID', 'The service records', 'Previous hash', 'Hash'];
    await wb.createTable({ name: AUDIT_TABLE, sheet, anchor: 'A1', columns: old.map((name) => ({ name, format: 'text' as const })) });
    await writeAudit(wb, summary, 'key:0123456789ab');
    await writeAudit(wb, { ...summary, outcomes: [{ ...created(0), receipt: { receipts: 'not kept here', sentBodies: 'nor this' } }] }, 'key:0123456789ab');
    const { columns, rows } = await wb.readRows(AUDIT_TABLE);
    expect(columns).toEqual(old);
    expect(rows.map((r) => r.length)).toEqual([16, 16, 16]);
    expect(rows.flat()).not.toContain('not kept here');
    expect(rows.flat()).not.toContain('nor this');
    expect(await checkChain({ columns, rows }, at)).toEqual({ entries: 3, unchained: 0, breaks: [] });
  });

  it('an audit table chained before the Sent body SHA-256 column keeps its layout; its receipts verify without the body comparison, a new table compares them', async () => {
    const body = (c: string) => c.repeat(64);
    // A receipt's claims as the relay signs them (signature not checked here: no JWKS; relay-witness.test.ts checks them).
    const receipt = (n: number) =>
      ['{"alg":"EdDSA"}', JSON.stringify({ kind: 'write', environment: { name: 'ACC', host: 'h' }, time: 't', status: 201, who: { kind: 'key', fingerprint: 'key:0123456789ab' }, rule: 'personal key', requestId: `r${n}`, method: 'POST', path: '/api/incidents', bodySha256: body(String(n)), answerSha256: body('a') }), 'sig']
        .map((p) => Buffer.from(p).toString('base64url'))
        .join('.');
    const posted = runSummary([0, 1].map((n) => ({ ...created(n), receipt: { receipts: receipt(n), sentBodies: body(String(n)) } })));
    const cell = (r: number, c: number) => `R${r}C${c}`;

    const wb = createMemoryWorkbook();
    const sheet = await wb.addSheet('Write-back audit');
    const before = ['Run started', 'Run finished', 'Who', 'Environment', 'Flow', 'Table', 'Sheet row', 'Result', 'GUID', 'Message', 'Formula-like text', 'Person ID', 'Key fingerprint', 'The service records', RELAY_RECEIPT, 'Previous hash', 'Hash'];
    await wb.createTable({ name: AUDIT_TABLE, sheet, anchor: 'A1', columns: before.map((name) => ({ name, format: 'text' as const })) });
    await writeAudit(wb, posted, 'key:0123456789ab');
    const old = await wb.readRows(AUDIT_TABLE);
    expect(old.columns).toEqual(before);
    expect(old.rows.flat()).not.toContain(body('0'));
    expect(await checkChain(old, at)).toEqual({ entries: 2, unchained: 0, breaks: [] });
    expect(await checkReceipts(old, before.indexOf(RELAY_RECEIPT), null, cell)).toMatchObject({ signed: 2, bodies: 'not recorded', problems: [] });

    const fresh = createMemoryWorkbook();
    await writeAudit(fresh, posted, 'key:0123456789ab');
    const now = await fresh.readRows(AUDIT_TABLE);
    const r = now.columns.indexOf(RELAY_RECEIPT);
    const b = now.columns.indexOf(SENT_BODIES);
    expect(now.rows.map((row) => row[b])).toEqual([body('0'), body('1')]);
    // Receipts from before write references (no writeRef, the body hash alone on the line): tied by their body only, and counted so.
    expect(await checkReceipts(now, r, null, cell)).toMatchObject({ signed: 2, bodies: 'checked', references: { tied: 0, untied: 2 }, problems: [] });
    const moved = now.rows.map((row) => [...row]);
    [moved[0]![r], moved[1]![r]] = [moved[1]![r]!, moved[0]![r]!];
    expect((await checkReceipts({ columns: now.columns, rows: moved }, r, null, cell)).problems).toEqual([0, 1].map((row) => ({ row, column: b, problem: 'body-mismatch', message: expect.stringContaining(`R${row}C${b}`) })));
  });
});
