import { isoToSerial, serialToIso } from '../../src/sheet';

describe('Excel serial dates', () => {
  it('gives the serials Excel uses (2000-01-01 is 36526, 1900-03-01 is 61)', () => {
    expect(isoToSerial('2000-01-01')).toBe(36526);
    expect(isoToSerial('1900-03-01')).toBe(61);
    expect(isoToSerial('1900-01-01')).toBe(1);
    expect(isoToSerial('1900-02-28')).toBe(59);
  });

  it('round-trips a date without any time zone shift', () => {
    for (const d of ['2025-03-04', '1999-12-31', '2024-02-29', '1900-01-01', '9999-12-31']) {
      expect(serialToIso(isoToSerial(d)!, 'date')).toBe(d);
    }
  });

  it('keeps the wall-clock time of a date-time and ignores its offset', () => {
    expect(isoToSerial('2025-03-04T18:00:00Z')).toBeCloseTo(isoToSerial('2025-03-04')! + 0.75, 10);
    expect(isoToSerial('2025-03-04T18:00:00+05:00')).toBe(isoToSerial('2025-03-04T18:00:00Z'));
    expect(serialToIso(isoToSerial('2025-03-04T23:59:59.400')!, 'datetime')).toBe('2025-03-04T23:59:59');
    expect(serialToIso(isoToSerial('2025-03-04T10:30')!, 'datetime')).toBe('2025-03-04T10:30:00');
  });

  it('refuses text that is not a real date', () => {
    expect(isoToSerial('2025-02-30')).toBeNull();
    expect(isoToSerial('2025-13-01')).toBeNull();
    expect(isoToSerial('04/03/2025')).toBeNull();
    expect(isoToSerial('1899-12-31')).toBeNull();
    expect(serialToIso(60, 'date')).toBeNull();
    expect(serialToIso(-1, 'date')).toBeNull();
    expect(serialToIso(Number.NaN, 'date')).toBeNull();
  });
});
