import { renderToString } from 'react-dom/server';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { catalog, createCatalog } from '../../../src/catalog';
import { DatasetsScreen } from '../../../src/taskpane/components/DatasetsScreen';
import { createMemoryWorkbook } from '../../../src/workbook/memory';
import { bindPaths } from '../../catalog/bind-paths';

const render = (cat = catalog) =>
  renderToString(
    <FluentProvider theme={webLightTheme}>
      <DatasetsScreen
        catalog={cat}
        workbook={createMemoryWorkbook()}
        session={null}
        onActivity={() => undefined}
        onWorkbookChanged={() => undefined}
        workbookVersion={0}
      />
    </FluentProvider>,
  );

/** The list item of one dataset, from its button to the end of its description. */
const item = (html: string, id: string) => {
  const start = html.lastIndexOf('<button', html.indexOf(`data-testid="dataset-${id}"`));
  return html.slice(start, html.indexOf('</button>', start));
};

test('without a binding, assumed paths are explained above the list and each badge has the explanation as its tooltip', () => {
  const html = render();
  expect(html).toContain('data-testid="assumed-explained"');
  expect(html).toMatch(/does not show their path, so grc-sheets guesses it/);
  const thirdparty = item(html, 'thirdparty');
  expect(thirdparty).toContain('assumed path');
  expect(thirdparty).toMatch(
    /title="The service(&#x27;|')s documentation does not show where this dataset lives/,
  );
  expect(thirdparty).toContain('aria-describedby="datasets-assumed-help"');
  expect(item(html, 'risk')).not.toContain('assumed path');
});

test('with a binding: bound paths marked as from the API file, what it lacks not available with why, its extra datasets under Other as text columns', () => {
  const b = bindPaths({ thirdparty: '/tpdata/v2/thirdparties' });
  const { tasks: _gone, ...endpoints } = b.endpoints;
  const html = render(
    createCatalog({
      ...b,
      endpoints,
      missing: { ...b.missing, tasks: 'no operation of the file fits' },
      extraDatasets: [
        { id: 'x-vendors', path: '/vendordata/v1/vendors', title: 'Vendors', records: '', properties: ['Name', 'Tier'] },
      ],
    }),
  );
  expect(item(html, 'thirdparty')).toContain('from API file');
  expect(item(html, 'thirdparty')).not.toContain('assumed path');
  const tasks = item(html, 'tasks');
  expect(tasks).toContain('not available here');
  expect(tasks).not.toContain('assumed path');
  expect(tasks).toContain('disabled');
  expect(tasks).toMatch(/API file has no such operation/);
  expect(html).toContain('aria-label="Other"');
  expect(item(html, 'x-vendors')).toContain('text columns');
  expect(item(html, 'x-vendors')).toContain('from API file');
});

test('a documented dataset the API file does not list stays loadable, marked "documented, not in your API file" with what to do', () => {
  const b = bindPaths();
  const { audit: _gone, ...endpoints } = b.endpoints;
  const html = render(createCatalog({ ...b, endpoints, missing: { ...b.missing, audit: 'no operation of the file fits' } }));
  const audit = item(html, 'audit');
  expect(audit).toContain('documented, not in your API file');
  expect(audit).toMatch(/title="The service(&#x27;|')s documentation shows this path, but the API file/);
  expect(audit).not.toContain('disabled');
  expect(audit).not.toContain('not available here');
  expect(item(html, 'auditfinding')).not.toContain('not in your API file');
});
