import { serialToIso } from '../../src/sheet/serial';
import { readResult, resultCells, resultColumnSpecs } from '../../src/writeback/rows/results';
import { timeCell, timeOfCell } from '../../src/writeback/rows/resulttime';

describe('Result time as an Excel date-time in local time', () => {
  const at = '2025-06-01T10:00:07.000Z';

  it('is written as a serial of the local wall clock, in a date-time column', () => {
    const cell = timeCell(at);
    expect(typeof cell).toBe('number');
    const local = new Date(at);
    const wall = `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}T${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}:07`;
    expect(serialToIso(cell as number, 'datetime')).toBe(wall);
    expect(resultColumnSpecs.find((c) => c.name === 'Result time')?.format).toBe('datetime');
  });

  it('reads back as the same instant, and reads older ISO text as before', () => {
    expect(timeOfCell(timeCell(at))).toBe(at);
    expect(readResult(resultCells({ status: 'unknown', guid: '', message: 'm', time: at })).time).toBe(at);
    expect(timeOfCell('2025-06-01T10:00:07Z')).toBe('2025-06-01T10:00:07Z');
    expect(timeOfCell(null)).toBe('');
    expect(timeCell('')).toBeNull();
  });
});
