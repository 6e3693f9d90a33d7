import { renderToString } from 'react-dom/server';
import { catalog } from '../../../src/catalog';
import { App } from '../../../src/taskpane/components/App';
import { createMemoryWorkbook } from '../../../src/workbook/memory';

test('the shell renders without Office: every tab, the badge, and the Write-back screen (its connect-first text)', () => {
  const html = renderToString(
    <App
      host={{ kind: 'preview' }}
      workbook={createMemoryWorkbook()}
      catalog={catalog}
      origin="http://127.0.0.1:1"
      fetch={() => Promise.reject(new Error('not called during render'))}
      copy={() => Promise.resolve()}
      signInWindow={{ open: () => ({ result: Promise.reject(new Error('not opened during render')), cancel: () => undefined }) }}
    />,
  );
  for (const tab of ['Connect', 'Datasets', 'Tables', 'Write-back', 'Activity']) expect(html).toContain(`>${tab}</`);
  expect(html).toContain('Not connected');
  expect(html).toContain('data-testid="dataset-risk"');
  expect(html).toContain('Connect first: write-back uses');
});
