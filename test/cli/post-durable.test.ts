import { durable } from '../../src/cli/post';
import type { FileWorkbook } from '../../src/workbook/file';

/** grc-sheets post's saves: shared by the asks that come together; outcomes saved at least every second. */
describe('grc-sheets post: when the file is saved', () => {
  const setup = () => {
    let clock = 0;
    const saves: number[] = [];
    const book = { updateRows: async () => [0] } as unknown as FileWorkbook;
    const port = durable(book, () => saves.push(clock), () => clock);
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    return { port, saves, tick, at: (t: number) => (clock = t) };
  };

  it('asks that come in one turn share one save, made after them', async () => {
    const { port, saves, at } = setup();
    at(5);
    await Promise.all([port.persist!(), port.persist!(), port.persist!()]);
    expect(saves).toEqual([5]);
  });

  it('outcomes wait for no save, but one is made once a second has passed since the last', async () => {
    const { port, saves, tick, at } = setup();
    at(400);
    await port.updateRows('T', []);
    await tick();
    expect(saves).toEqual([]);
    at(1_001);
    await port.updateRows('T', []);
    await tick();
    expect(saves).toEqual([1_001]);
    at(1_500);
    await port.updateRows('T', []);
    await tick();
    expect(saves).toEqual([1_001]);
  });
});
