import { ApiError } from '../../src/client';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import type { WritebackApi } from '../../src/writeback/api';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { preparePost } from '../../src/writeback/post';
import { resultColumnSpecs } from '../../src/writeback/rows/results';
import { timeCell, timeOfCell } from '../../src/writeback/rows/resulttime';
import { describeProblem, problemPlace } from '../../src/writeback/problem';
import { standing, created } from './fixtures';

const ACC = { name: 'ACC', production: false };
const PRD = { name: 'PRD', production: true };
const guid = (n: number) => `99999999-0000-4000-8000-${String(n).padStart(12, '0')}`;

async function incidentTable(rows: Cell[][], anchor = 'A1') {
  const workbook = createMemoryWorkbook();
  await workbook.createTable({
    name: 'Inc',
    sheet: 'Sheet1',
    anchor,
    columns: [
      { name: 'Name', format: 'text' },
      { name: 'Reporting organization', format: 'text' },
    ],
  });
  await workbook.writeRows('Inc', 0, rows);
  return workbook;
}

/** A fake service: answers creates in order; `fail` decides per call what goes wrong. */
function fakeApi(
  workbook: Awaited<ReturnType<typeof incidentTable>>,
  fail: (n: number) => ApiError | null = () => null,
  existing: Record<string, unknown>[] = [],
) {
  const calls: { name: string; resultAtSend: Cell }[] = [];
  const api: WritebackApi = {
    async download(id) {
      return { records: id === 'incidents' ? existing : [...(standing.get(id) ?? [])] };
    },
    async send(_op, o) {
      const body = o?.body as { Name: string };
      const { columns, rows } = await workbook.readRows('Inc');
      const r = rows.find((x) => x[0] === body.Name)!;
      calls.push({ name: body.Name, resultAtSend: r[columns.indexOf('Result')] ?? null });
      const e = fail(calls.length);
      if (e) throw e;
      return created(guid(calls.length));
    },
  };
  return { api, calls };
}

const results = async (workbook: Awaited<ReturnType<typeof incidentTable>>) => {
  const { columns, rows } = await workbook.readRows('Inc');
  const at = columns.indexOf('Result');
  return rows.map((r) => [r[at], r[at + 1], r[at + 2]]);
};

describe('posting a table', () => {
  it('posts only valid rows, writes "sending" into the row before each request, and each outcome into its own row', async () => {
    const workbook = await incidentTable([
      ['A', 'Finance'],
      ['', 'Finance'],
      ['C', 'IT'],
    ]);
    const { api, calls } = fakeApi(workbook);
    const plan = await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC });
    expect(plan.toSend).toBe(2);
    expect(plan.validation.problems).toEqual([
      expect.objectContaining({ row: 1, column: 'Name', code: 'required' }),
    ]);
    const summary = await plan.run();
    expect(calls.map((c) => c.resultAtSend)).toEqual(['sending', 'sending']);
    expect(await results(workbook)).toEqual([
      ['created', guid(1), 'Created'],
      // A row left out for its errors says so, and why.
      ['Not sent: 1 error', '', 'Name: the incident name is required; fill in Name'],
      ['created', guid(2), 'Created'],
    ]);
    expect(summary.counts.created).toBe(2);
    expect(
      (await workbook.getSetting<Record<string, { environment: string }>>('grc-sheets.writeback.tables'))?.Inc
        ?.environment,
    ).toBe('ACC');
  });

  it('names rows as Excel numbers them: a table with its header on row 3 starts its body on row 4', async () => {
    const workbook = await incidentTable(
      [
        ['A', 'Finance'],
        ['', 'Finance'],
      ],
      'C3',
    );
    const { api } = fakeApi(workbook);
    const plan = await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC });
    const summary = await plan.run();
    expect(summary.firstRow).toBe(4);
    const required = plan.validation.problems.find((p) => p.code === 'required')!;
    expect(describeProblem(required, summary.firstRow)).toMatch(/^Row 5, Name: /);
    expect(problemPlace({ ...required, row: -1 }, summary.firstRow)).toBe('Name');
  });

  it('a second Post sends nothing that already has a result', async () => {
    const workbook = await incidentTable([['A', 'Finance']]);
    const { api, calls } = fakeApi(workbook);
    await (await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })).run();
    const again = await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC });
    expect(again.toSend).toBe(0);
    await again.run();
    expect(calls).toHaveLength(1);
  });

  it('an ambiguous outcome marks the row unknown; the next Post finds its record and adopts the GUID instead of sending', async () => {
    const workbook = await incidentTable([['A', 'Finance']]);
    const first = fakeApi(
      workbook,
      () => new ApiError({ code: 'outcome-unknown', message: 'connection closed', sent: 'unknown' }),
    );
    await (
      await preparePost({ api: first.api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })
    ).run();
    expect((await results(workbook))[0]![0]).toBe('unknown');
    // The unknown row keeps the time it was sent: the next Post compares it with registration times.
    const { columns, rows } = await workbook.readRows('Inc');
    const sentAt = Date.parse(timeOfCell(rows[0]![columns.indexOf('Result time')]));
    const at = (ms: number) => new Date(sentAt + ms).toISOString();

    const second = fakeApi(workbook, () => null, [
      { Id: guid(41), Name: 'A', ReportingOrganization: 'Finance', DateRegistered: at(-3_600_000) },
      { Id: guid(42), Name: 'A', ReportingOrganization: 'Finance', DateRegistered: at(1_000) },
    ]);
    const plan = await preparePost({
      api: second.api,
      workbook,
      table: 'Inc',
      flow: incidentsFlow,
      environment: ACC,
    });
    expect(plan.toCheck).toBe(1);
    await plan.run();
    expect(second.calls).toHaveLength(0);
    expect((await results(workbook))[0]!.slice(0, 2)).toEqual(['created', guid(42)]);
  });

  it('a row left "sending" by a crash is checked, and sent again only when its record is not in the service', async () => {
    // The table already has its result columns: they were written by the crashed run.
    const wb = createMemoryWorkbook();
    await wb.createTable({
      name: 'Inc',
      sheet: 'Sheet1',
      anchor: 'A1',
      columns: [
        'Name',
        'Reporting organization',
        'Result',
        'Result GUID',
        'Result message',
        'Result time',
      ].map((name) => ({ name, format: 'text' as const })),
    });
    await wb.writeRows('Inc', 0, [['A', 'Finance', 'sending', '', 'Sending', '2025-01-01T00:00:00Z']]);
    const f = fakeApi(wb);
    const plan = await preparePost({
      api: f.api,
      workbook: wb,
      table: 'Inc',
      flow: incidentsFlow,
      environment: ACC,
    });
    expect(plan.toCheck).toBe(1);
    await plan.run();
    expect(f.calls).toHaveLength(1);
    expect((await results(wb))[0]!.slice(0, 2)).toEqual(['created', guid(1)]);
  });

  it('an unknown row sent as typed is found when the next Post neutralises formula-like text, not sent again', async () => {
    const workbook = await incidentTable([['=A', 'Finance']]);
    const first = fakeApi(
      workbook,
      () => new ApiError({ code: 'outcome-unknown', message: 'connection closed', sent: 'unknown' }),
    );
    await (
      await preparePost({ api: first.api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })
    ).run({ formulaText: 'as typed' });
    expect((await results(workbook))[0]![0]).toBe('unknown');
    const { columns, rows } = await workbook.readRows('Inc');
    const sentAt = Date.parse(timeOfCell(rows[0]![columns.indexOf('Result time')]));
    // The service did create it, with the text as typed.
    const second = fakeApi(workbook, () => null, [
      {
        Id: guid(42),
        Name: '=A',
        ReportingOrganization: 'Finance',
        DateRegistered: new Date(sentAt + 1_000).toISOString(),
      },
    ]);
    const plan = await preparePost({
      api: second.api,
      workbook,
      table: 'Inc',
      flow: incidentsFlow,
      environment: ACC,
    });
    expect(plan.toCheck).toBe(1);
    await plan.run({ formulaText: 'neutralised' });
    expect(second.calls).toHaveLength(0);
    expect((await results(workbook))[0]!.slice(0, 2)).toEqual(['created', guid(42)]);
  });

  it('an unknown row whose only lookalike was registered before it was sent is sent, keeping its first send time', async () => {
    const workbook = await incidentTable([['A', 'Finance']]);
    const first = fakeApi(
      workbook,
      () => new ApiError({ code: 'outcome-unknown', message: 'connection closed', sent: 'unknown' }),
    );
    const t0 = new Date('2025-06-01T10:00:00Z');
    await (
      await preparePost({ api: first.api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })
    ).run({ now: () => t0 });
    const times = async () => {
      const { columns, rows } = await workbook.readRows('Inc');
      return rows[0]![columns.indexOf('Result time')];
    };
    // An Excel date-time: the serial of the local wall-clock time.
    expect(await times()).toBe(timeCell(t0.toISOString()));
    expect(typeof (await times())).toBe('number');

    const stranger = {
      Id: guid(7),
      Name: 'A',
      ReportingOrganization: 'Finance',
      DateRegistered: '2024-06-01T10:00:00Z',
    };
    const later = new Date('2025-06-02T10:00:00Z');
    const again = fakeApi(
      workbook,
      () => new ApiError({ code: 'server-error', message: '500', sent: 'yes' }),
      [stranger],
    );
    await (
      await preparePost({ api: again.api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })
    ).run({ now: () => later });
    expect(again.calls).toHaveLength(1);
    expect((await results(workbook))[0]![0]).toBe('unknown');
    // Sent again, still unknown: the time stays the first send, so the first request's record still counts.
    expect(timeOfCell(await times())).toBe(t0.toISOString());

    const third = fakeApi(workbook, () => null, [stranger]);
    await (
      await preparePost({ api: third.api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })
    ).run();
    expect(third.calls).toHaveLength(1);
    expect((await results(workbook))[0]!.slice(0, 2)).toEqual(['created', guid(1)]);
  });

  it('production needs a confirmation naming the environment and the row count', async () => {
    const workbook = await incidentTable([
      ['A', 'Finance'],
      ['B', 'Finance'],
    ]);
    const { api, calls } = fakeApi(workbook);
    const plan = await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: PRD });
    expect(plan.confirmation).toEqual({
      environment: 'PRD',
      rows: 2,
      message: expect.stringContaining('2 rows to PRD'),
    });
    expect(() => plan.run()).toThrow(/confirmation/);
    expect(() => plan.run({ confirm: { environment: 'PRD', rows: 1 } })).toThrow(/confirmation/);
    await plan.run({ confirm: { environment: 'PRD', rows: 2 } });
    expect(calls).toHaveLength(2);
  });

  it('warns and asks to confirm when the table was filled for another environment', async () => {
    const workbook = await incidentTable([['A', 'Finance']]);
    await workbook.setSetting('grc-sheets.writeback.tables', {
      Inc: { flow: 'incidents', environment: 'ACC', createdAt: '2025-01-01T00:00:00Z' },
    });
    const { api } = fakeApi(workbook);
    const plan = await preparePost({
      api,
      workbook,
      table: 'Inc',
      flow: incidentsFlow,
      environment: { name: 'TEST', production: false },
    });
    expect(plan.confirmation?.message).toContain('was filled for ACC');
  });

  it('cancel: rows in flight finish and record their outcome, no new row starts, and a re-run sends the rest', async () => {
    const workbook = await incidentTable(Array.from({ length: 10 }, (_, i) => [`R${i}`, 'Finance']));
    const ctl = new AbortController();
    const { api, calls } = fakeApi(workbook, (n) => {
      if (n === 2) ctl.abort();
      return null;
    });
    const summary = await (
      await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })
    ).run({ concurrency: 2, signal: ctl.signal });
    expect(summary.cancelled).toBe(true);
    const sentFirst = calls.length;
    expect(sentFirst).toBeLessThan(10);
    const after = await results(workbook);
    expect(after.filter((r) => r[0] === 'created')).toHaveLength(sentFirst);
    expect(after.filter((r) => r[0] === 'sending')).toHaveLength(0);
    await (await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })).run();
    expect(calls).toHaveLength(10);
    expect(new Set(calls.map((c) => c.name)).size).toBe(10);
  });

  it('marks rows "sending" ahead in batches: each row is marked in a persisted save before its request leaves, with few saves, and a cancel puts back what unsent rows held', async () => {
    const rows: Cell[][] = Array.from({ length: 120 }, (_, i) => [`M${i}`, 'Finance']);
    const workbook = await incidentTable(rows);
    // Row 100 was not sent by an earlier Post: its cells as a person left them must come back untouched.
    await workbook.addColumns('Inc', [...resultColumnSpecs]);
    await workbook.writeRows('Inc', 100, [['Not sent', '', 'Not sent: cancelled', null]], 2);
    const persisted = new Map<string, Cell>();
    let saves = 0;
    const port = {
      ...workbook,
      async persist() {
        saves++;
        const { columns, rows: now } = await workbook.readRows('Inc');
        for (const r of now) persisted.set(String(r[0]), r[columns.indexOf('Result')] ?? null);
      },
    };
    const ctl = new AbortController();
    const atSend: Cell[] = [];
    const { api, calls } = fakeApi(workbook, (n) => {
      if (n === 90) ctl.abort();
      return null;
    });
    const send = api.send;
    api.send = (op, o) => {
      atSend.push(persisted.get((o?.body as { Name: string }).Name) ?? null);
      return send(op, o);
    };
    const summary = await (await preparePost({ api, workbook: port, table: 'Inc', flow: incidentsFlow, environment: ACC })).run({ concurrency: 4, signal: ctl.signal });
    expect(summary.cancelled).toBe(true);
    expect(atSend).toHaveLength(calls.length);
    expect(atSend.every((r) => r === 'sending')).toBe(true);
    // Batches of 8, 16, 32, 64 marked ahead: a handful of saves, not one per row.
    expect(saves).toBeLessThanOrEqual(6);
    const after = await results(workbook);
    expect(after.filter((r) => r[0] === 'created')).toHaveLength(calls.length);
    expect(after.filter((r) => r[0] === 'sending')).toHaveLength(0);
    expect(after[100]).toEqual(['Not sent', '', 'Not sent: cancelled']);
    expect(after.slice(calls.length).filter((r, i) => calls.length + i !== 100).every((r) => r.every((c) => c === null))).toBe(true);
  });

  it('a cancel while rows whose answers were lost are sent again leaves those not resent unknown, with their send time', async () => {
    const workbook = await incidentTable(Array.from({ length: 10 }, (_, i) => [`U${i}`, 'Finance']));
    const ctl = new AbortController();
    // Answers 1-5 lost: those rows are unknown, looked for before the Post ends (absent) and sent again;
    // the first resend (call 11) cancels, so rows marked for a resend ahead of it are never sent.
    const { api, calls } = fakeApi(workbook, (n) => {
      if (n === 11) ctl.abort();
      return n <= 5 ? new ApiError({ code: 'outcome-unknown', message: 'connection closed', sent: 'unknown' }) : null;
    });
    // A workbook that persists (as the command line's file): rows are marked ahead there.
    const port = { ...workbook, persist: async () => undefined };
    await (await preparePost({ api, workbook: port, table: 'Inc', flow: incidentsFlow, environment: ACC })).run({ concurrency: 1, signal: ctl.signal });
    expect(calls.map((c) => c.name)).toEqual(['U0', 'U1', 'U2', 'U3', 'U4', 'U5', 'U6', 'U7', 'U8', 'U9', 'U0']);
    const { columns, rows } = await workbook.readRows('Inc');
    const result = (i: number) => rows[i]![columns.indexOf('Result')];
    expect([1, 2, 3, 4].map(result)).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
    expect([1, 2, 3, 4].every((i) => Date.parse(timeOfCell(rows[i]![columns.indexOf('Result time')])) > 0)).toBe(true);
    expect(result(0)).toBe('created');
  });
  it('a save that fails (disk full, the file changed on disk) sends nothing: a mark that is not saved is no mark', async () => {
    const workbook = await incidentTable(Array.from({ length: 12 }, (_, i) => [`F${i}`, 'Finance']));
    const port = { ...workbook, persist: () => Promise.reject(new Error('disk full')) };
    const { api, calls } = fakeApi(workbook);
    const plan = await preparePost({ api, workbook: port, table: 'Inc', flow: incidentsFlow, environment: ACC });
    await expect(plan.run({ concurrency: 4 })).rejects.toThrow(/disk full/);
    expect(calls).toHaveLength(0);
  });
  it('a run that stops itself (the key refused) with rows marked ahead puts their cells back; the next Post sends each of them once', async () => {
    const workbook = await incidentTable(Array.from({ length: 40 }, (_, i) => [`K${i}`, 'Finance']));
    const marked = new Set<string>();
    const port = {
      ...workbook,
      async persist() {
        const { columns, rows } = await workbook.readRows('Inc');
        for (const r of rows) if (r[columns.indexOf('Result')] === 'sending') marked.add(String(r[0]));
      },
    };
    let refuse = true;
    const { api, calls } = fakeApi(workbook, (n) => (refuse && n === 6 ? new ApiError({ code: 'invalid-credentials', message: 'key refused', sent: 'no' }) : null));
    const summary = await (await preparePost({ api, workbook: port, table: 'Inc', flow: incidentsFlow, environment: ACC })).run({ concurrency: 4 });
    expect(summary.stoppedBecause).toMatch(/key refused/);
    const after = await results(workbook);
    // Rows marked ahead in a save and never sent (the stop came first) are blank again, as the plan read them.
    const unsent = [...marked].filter((n) => !calls.some((c) => c.name === n));
    expect(unsent.length).toBeGreaterThan(4);
    for (const n of unsent) expect(after[Number(n.slice(1))]).toEqual([null, null, null]);
    expect(after.filter((r) => r[0] === 'sending')).toHaveLength(0);
    refuse = false;
    await (await preparePost({ api, workbook: port, table: 'Inc', flow: incidentsFlow, environment: ACC })).run({ concurrency: 4 });
    const sent = calls.filter((_, i) => i !== 5).map((c) => c.name);
    expect(sent.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `K${i}`).sort());
  });
  it('a crash at any send leaves every row whose record exists sending or unknown with its time, or created with that record: lost answers, 503s, refusals and the resends within the Post', async () => {
    const N = 60;
    const workbook = await incidentTable(Array.from({ length: N }, (_, i) => [`P${i}`, 'Finance']));
    // What a crash would leave: the workbook as of its last save.
    const snapshot = async () => {
      const { columns, rows } = await workbook.readRows('Inc');
      return new Map(rows.map((r) => [String(r[0]), ['Result', 'Result GUID', 'Result time'].map((c) => r[columns.indexOf(c)] ?? null)]));
    };
    let disk = await snapshot();
    const port = { ...workbook, persist: async () => void (disk = await snapshot()) };
    const records = new Map<string, string[]>();
    const violations: string[] = [];
    const check = (when: string) => {
      for (const [name, ids] of records) {
        const [status, guid, time] = disk.get(name)!;
        const marked = (status === 'sending' || status === 'unknown') && time !== null;
        if (!marked && !(status === 'created' && ids.includes(String(guid)))) violations.push(`${when}: ${name} ${String(status)}`);
      }
    };
    let n = 0;
    const api: WritebackApi = {
      async download(id) {
        if (id !== 'incidents') return { records: [...(standing.get(id) ?? [])] };
        const at = new Date().toISOString();
        return { records: [...records].flatMap(([Name, ids]) => ids.map((Id) => ({ Id, Name, ReportingOrganization: 'Finance', DateRegistered: at }))) };
      },
      async send(_op, o) {
        const k = ++n;
        check(`before call ${k}`);
        if (k % 7 === 3) throw new ApiError({ code: 'unavailable', sent: 'yes', status: 503, message: 'busy' });
        if (k % 11 === 1) throw new ApiError({ code: 'rejected', sent: 'yes', status: 400, message: 'refused' });
        const name = (o?.body as { Name: string }).Name;
        const Id = guid(k);
        records.set(name, [...(records.get(name) ?? []), Id]);
        check(`call ${k}, stored`);
        await Promise.resolve();
        if (k % 5 === 0) throw new ApiError({ code: 'outcome-unknown', sent: 'unknown', message: 'lost' });
        return created(Id);
      },
    };
    for (let run = 0; run < 4; run++) {
      const plan = await preparePost({ api, workbook: port, table: 'Inc', flow: incidentsFlow, environment: ACC });
      if (plan.toSend + plan.toCheck === 0) break;
      await plan.run({ concurrency: 4 });
      check(`end of run ${run}, before its last save`);
      disk = await snapshot();
    }
    expect(violations).toEqual([]);
    // Every row but those refused has one record.
    const refused = (await results(workbook)).filter((r) => r[0] === 'failed').length;
    expect([...records.values()].map((ids) => ids.length)).toEqual(Array.from({ length: N - refused }, () => 1));
    expect(n).toBeGreaterThan(N);
  });
});
