import { catalog, fillPath } from '../../src/catalog';
import type { Sandbox } from '../../src/sandbox';
import { call, post, start, userKey } from './helpers';

type Rec = Record<string, unknown> & { Id: string };
const path = (id: string, guid: string) => fillPath(catalog.operation(id).path, { guid });

describe('sandbox control test plans, samples and forms (spec: Control, Form result)', () => {
  let sb: Sandbox;
  const plans = async () => (await call<Rec[]>(sb, catalog.dataset('controltestplan').path)).body;
  const controlOf = async (plan: Rec) =>
    (await call<Rec[]>(sb, catalog.dataset('control').path)).body.find((c) => c.Id === plan.ControlGuid)!;
  const awaiting = async (skip = 0) =>
    (await plans()).filter((p) => p.Status === 'Testing - awaiting conclusion' && !p.NonOccurrence)[skip]!;

  beforeAll(async () => {
    sb = await start();
  });
  afterAll(() => sb.close());

  it('stores the final score and comment of an assigned tester and moves the plan on', async () => {
    const plan = await awaiting(0);
    const tester = ((await controlOf(plan)).Testers as string[])[0]!;
    const a = await post(
      sb,
      path('final-score', plan.Id),
      { Score: 3, Comment: 'Effective' },
      userKey(tester),
    );
    expect(a.status).toBe(200);
    expect((await plans()).find((p) => p.Id === plan.Id)).toMatchObject({
      Score: 3,
      Comment: 'Effective',
      Status: 'Review - in progress',
      Phase: 'Review',
    });
  });

  it('accepts a control administrator of the control', async () => {
    const plan = await awaiting(0);
    const admin = ((await controlOf(plan)).Administrators as string[])[0]!;
    expect(
      (await post(sb, path('final-score', plan.Id), { Score: 2, Comment: 'ok' }, userKey(admin))).status,
    ).toBe(200);
  });

  it('forbids a final score from someone who is neither tester nor control administrator', async () => {
    const plan = await awaiting(0);
    const control = await controlOf(plan);
    const outsider = ['Anna de Vries', 'Bram Jansen', 'Chloe Martin', 'Daan Bakker', 'Eva Visser'].find(
      (n) => !(control.Testers as string[]).includes(n) && !(control.Administrators as string[]).includes(n),
    )!;
    expect(
      await post(sb, path('final-score', plan.Id), { Score: 1, Comment: 'x' }, userKey(outsider)),
    ).toMatchObject({ status: 403, body: { message: 'Forbidden to execute action.' } });
  });

  it('refuses a final score outside Testing - awaiting conclusion and on non-occurrence plans', async () => {
    const all = await plans();
    const other = all.find((p) => p.Status === 'Testing - in progress')!;
    const tester = ((await controlOf(other)).Testers as string[])[0]!;
    const a = await post(sb, path('final-score', other.Id), { Score: 1, Comment: 'x' }, userKey(tester));
    expect(a.status).toBe(400);
    expect(a.body.errors[0].message).toMatch(/needs the status "Testing - awaiting conclusion"/);
    const non = all.find((p) => p.NonOccurrence && p.Status === 'Testing - awaiting conclusion')!;
    const t2 = ((await controlOf(non)).Testers as string[])[0]!;
    expect(
      (await post(sb, path('final-score', non.Id), { Score: 1, Comment: 'x' }, userKey(t2))).body.errors[0]
        .message,
    ).toMatch(/non-occurrence/);
  });

  it('generates samples for a test plan and lists them with the evidence document fields', async () => {
    const plan = (await plans())[0]!;
    const samplesPath = fillPath(catalog.dataset('samples').path, { guid: plan.Id });
    const before = (await call<Rec[]>(sb, samplesPath)).body;
    expect(before.every((s) => s.TestPlanId === plan.Id && 'DocumentGuid' in s && 'DocumentName' in s)).toBe(
      true,
    );
    expect((await post(sb, path('samples-generate', plan.Id), { Count: 3 })).status).toBe(200);
    expect((await call<Rec[]>(sb, samplesPath)).body).toHaveLength(before.length + 3);
    expect(
      (
        await call(
          sb,
          fillPath(catalog.dataset('samples').path, { guid: '00000000-0000-4000-8000-000000000000' }),
        )
      ).status,
    ).toBe(404);
  });

  it('creates form results, refusing duplicate field names', async () => {
    const form = sb.store.ctx.st.forms[1]!.Id;
    const a = await post(sb, path('formresult-create', form), {
      Values: [
        { FieldName: 'Name', Value: 'Acme' },
        { FieldName: 'Score', Value: 4 },
      ],
    });
    expect(a.status).toBe(201);
    const results = (await call<Rec[]>(sb, fillPath(catalog.dataset('formresults').path, { guid: form })))
      .body;
    expect(results.find((r) => r.Id === a.body.Id)!.Values).toEqual([
      { FieldName: 'Name', Value: 'Acme' },
      { FieldName: 'Score', Value: 4 },
    ]);
    const dup = await post(sb, path('formresult-create', form), {
      Values: [
        { FieldName: 'Name', Value: 'a' },
        { FieldName: 'Name', Value: 'b' },
      ],
    });
    expect(dup.body.errors).toEqual([
      { field: 'Values[1].FieldName', message: expect.stringMatching(/unique/) },
    ]);
  });
});
