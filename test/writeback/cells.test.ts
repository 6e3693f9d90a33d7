import { readBoolean, readDate, readList, readNumber } from '../../src/writeback/rows/cells';
import { isoToSerial } from '../../src/sheet/serial';

describe('reading dates', () => {
  it('accepts a real date cell (an Excel serial) and ISO text', () => {
    expect(readDate(isoToSerial('2025-04-03')!)).toEqual({ ok: true, value: '2025-04-03' });
    expect(readDate('2025-04-03')).toEqual({ ok: true, value: '2025-04-03' });
    expect(readDate('2025-04-03T10:15:00')).toEqual({ ok: true, value: '2025-04-03' });
  });

  it('refuses 03/04/2025 and says both readings and what to type', () => {
    const r = readDate('03/04/2025');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('ambiguous-date');
    expect(r.message).toContain('2025-04-03');
    expect(r.message).toContain('2025-03-04');
    expect(r.message).toContain('yyyy-mm-dd');
  });

  it('refuses unambiguous slashed text too, suggesting the ISO form', () => {
    const r = readDate('25/12/2025');
    expect(r).toMatchObject({ ok: false, code: 'date-text' });
    expect(!r.ok && r.message).toContain('2025-12-25');
  });

  it('refuses days that are not in the calendar and other text', () => {
    expect(readDate('2025-02-30')).toMatchObject({ ok: false, code: 'not-a-date' });
    expect(readDate('next week')).toMatchObject({ ok: false, code: 'not-a-date' });
    expect(readDate(true)).toMatchObject({ ok: false });
  });

  it('reads a blank cell as no value', () => {
    expect(readDate(null)).toEqual({ ok: true, value: undefined });
    expect(readDate('  ')).toEqual({ ok: true, value: undefined });
  });
});

describe('reading other cells', () => {
  it('numbers: cells and plain decimal text; a comma decimal is refused rather than guessed', () => {
    expect(readNumber(3)).toEqual({ ok: true, value: 3 });
    expect(readNumber('2.5')).toEqual({ ok: true, value: 2.5 });
    expect(readNumber('2,5')).toMatchObject({ ok: false, code: 'not-a-number' });
  });

  it('booleans: TRUE/FALSE cells and yes/no text; false stays false', () => {
    expect(readBoolean(false)).toEqual({ ok: true, value: false });
    expect(readBoolean('no')).toEqual({ ok: true, value: false });
    expect(readBoolean('TRUE')).toEqual({ ok: true, value: true });
    expect(readBoolean('maybe')).toMatchObject({ ok: false, code: 'not-a-boolean' });
  });

  it('lists split on semicolons and line breaks, not commas', () => {
    expect(readList('Finance; IT\nLegal, Compliance')).toEqual({
      ok: true,
      value: ['Finance', 'IT', 'Legal, Compliance'],
    });
    expect(readList(' ; ')).toEqual({ ok: true, value: undefined });
  });
});
