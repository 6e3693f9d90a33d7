import { lazyWorkbook } from '../../src/workbook/lazy';
import { createMemoryWorkbook } from '../../src/workbook/memory';

describe('lazyWorkbook: the adapter loaded at the first call', () => {
  it('knows host and capabilities without loading; loads once for concurrent first calls; forwards every call', async () => {
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const memory = createMemoryWorkbook();
    const port = lazyWorkbook('excel', { notes: true, dataValidation: false }, async () => {
      loads++;
      await gate;
      return memory;
    });
    expect(port.host).toBe('excel');
    expect(port.capabilities).toEqual({ notes: true, dataValidation: false });
    expect(loads).toBe(0);

    const added = port.addSheet('Risks');
    const names = port.sheetNames();
    expect(loads).toBe(1);
    release();
    expect(await added).toBe('Risks');
    expect(await names).toContain('Risks');
    await port.createTable({
      name: 'T',
      sheet: 'Risks',
      anchor: 'A1',
      columns: [{ name: 'Name', format: 'text' }],
    });
    expect((await memory.listTables()).map((t) => t.name)).toEqual(['T']);
    expect(loads).toBe(1);
  });

  it("a failed load fails the call that needed it, with the loader's error; the next call loads again", async () => {
    let loads = 0;
    const port = lazyWorkbook('excel', { notes: false, dataValidation: false }, async () => {
      if (++loads === 1) throw new Error('chunk excel could not be loaded');
      return createMemoryWorkbook();
    });
    await expect(port.listTables()).rejects.toThrow('chunk excel could not be loaded');
    expect(await port.listTables()).toEqual([]);
    expect(loads).toBe(2);
  });
});
