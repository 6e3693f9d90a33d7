import { renderToString } from 'react-dom/server';
import { App } from '../../../src/taskpane/components/App';
import { createMemoryWorkbook } from '../../../src/workbook/memory';

test('the shell renders without Office: every tab, the badge and the Connect screen; the other screens wait for their tab', () => {
  const html = renderToString(
    <App
      host={{ kind: 'preview' }}
      workbook={createMemoryWorkbook()}
      origin="http://127.0.0.1:1"
      fetch={() => Promise.reject(new Error('not called during render'))}
      copy={() => Promise.resolve()}
      signInWindow={{ open: () => ({ result: Promise.reject(new Error('not opened during render')), cancel: () => undefined }) }}
    />,
  );
  for (const tab of ['Connect', 'Datasets', 'Tables', 'Write-back', 'Activity'])
    expect(html).toContain(`>${tab}</`);
  expect(html).toContain('Not connected');
  expect(html).toContain('Reading the relay&#x27;s environments'); // the Connect screen, first
  // Chunks of their own, loaded when their tab is first opened (test/e2e drives that; bundle.test.ts weighs it).
  for (const id of ['datasets', 'tables', 'writeback', 'activity'])
    expect(html).toMatch(new RegExp(`<div role="tabpanel" id="panel-${id}"[^>]*hidden=""></div>`));
});
