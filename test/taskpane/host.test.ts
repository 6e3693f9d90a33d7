import { watchThemeOf, type ThemeSource } from '../../src/taskpane/host';

function fakeOffice(background: string, acceptsEvent: boolean) {
  let handler: ((args: { officeTheme?: { bodyBackgroundColor?: string } }) => void) | undefined;
  let removed = 0;
  const context: ThemeSource = {
    officeTheme: { bodyBackgroundColor: background },
    document: {
      addHandlerAsync(_type, h, callback) {
        if (!acceptsEvent) throw new Error('unknown event type');
        handler = h;
        callback?.({ status: 'succeeded' });
      },
      removeHandlerAsync() {
        removed++;
      },
    },
  };
  return { context, fire: (bg: string) => handler?.({ officeTheme: { bodyBackgroundColor: bg } }), removed: () => removed };
}

test('a theme changed while the pane was away is picked up when the pane gets focus back', () => {
  const office = fakeOffice('#ffffff', false);
  const win = new EventTarget();
  const seen: (string | undefined)[] = [];
  const stop = watchThemeOf(office.context, [win], 'officeThemeChanged', (bg) => seen.push(bg));
  win.dispatchEvent(new Event('focus'));
  expect(seen).toEqual([]); // unchanged colour: nothing to redraw
  office.context.officeTheme!.bodyBackgroundColor = '#262626';
  win.dispatchEvent(new Event('focus'));
  expect(seen).toEqual(['#262626']);
  stop();
  office.context.officeTheme!.bodyBackgroundColor = '#ffffff';
  win.dispatchEvent(new Event('visibilitychange'));
  expect(seen).toEqual(['#262626']);
});

test('a host that reports theme changes is followed at once, and the handler is removed on stop', () => {
  const office = fakeOffice('#ffffff', true);
  const seen: (string | undefined)[] = [];
  const stop = watchThemeOf(office.context, [new EventTarget()], 'officeThemeChanged', (bg) => seen.push(bg));
  office.fire('#1f1f1f');
  office.fire('#1f1f1f');
  office.fire('#f3f3f3');
  expect(seen).toEqual(['#1f1f1f', '#f3f3f3']);
  stop();
  expect(office.removed()).toBe(1);
});
