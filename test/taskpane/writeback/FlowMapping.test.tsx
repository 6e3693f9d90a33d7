import { renderToString } from 'react-dom/server';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { FlowMapping } from '../../../src/taskpane/writeback/FlowMapping';
import { flowMapping } from '../../../src/writeback';
import { incidentsFlow } from '../../../src/writeback/flows/incidents';
import { bindingWith, extra, place, unplace } from '../../writeback/binding-fixture';

const binding = bindingWith({
  'incident-create': [
    place('Name', { at: '/incident/title', fileName: 'title' }),
    place('ReportingOrganization', {
      at: '/incident/reportingOrganisation',
      fileName: 'reportingOrganisation',
      encoding: { kind: 'ref', list: 'organizations', value: 'name', idAt: '/Guid', nameAt: '/Name' },
    }),
    unplace('RootCause'),
    extra('channel', { values: ['email', 'phone'] }),
    (op) => ({ ...op, file: { ...op.file, operationId: 'Incidents_Register', path: '/api/incidents' } }),
  ],
});

test("the flow's mapping is told in the file's words: its operation, property names, extra columns and what it has no place for", () => {
  const mapping = flowMapping(incidentsFlow, { name: 'ACC', production: false, binding });
  const create = mapping.find((m) => /create/i.test(m.title))!;
  expect(create.file).toBe('POST /api/incidents (Incidents_Register)');
  expect(create.columns).toEqual(
    expect.arrayContaining([
      { column: 'Name', file: 'title' },
      { column: 'Reporting organization', file: 'reportingOrganisation (name -> {Guid: GUID, Name: name} (organizations))' },
      { column: 'Custom fields', file: 'CustomFields' },
    ]),
  );
  expect(create.extras).toEqual([{ column: 'channel', file: 'channel, required' }]);
  expect(create.unplaced).toEqual(['Root cause']);
  expect(mapping.map((m) => m.title)).toEqual([create.title, expect.stringMatching(/hyperlink/i)]);
});

test('the notice shows it collapsed, one line per operation', () => {
  const mapping = flowMapping(incidentsFlow, { name: 'ACC', production: false, binding });
  const html = renderToString(
    <FluentProvider theme={webLightTheme}>
      <FlowMapping flowTitle="Incidents" environment="ACC" mapping={mapping} />
    </FluentProvider>,
  ).replace(/<!-- -->/g, '');
  expect(html).toMatch(/<details[^>]*data-testid="wb-mapping"/);
  expect(html).not.toMatch(/<details[^>]* open/);
  expect(html).toContain('Name → title');
  expect(html).toContain('channel → channel, required');
  expect(html).toContain('Not in the file, no column: Root cause');
  expect(html.match(/data-testid="wb-mapping-op"/g)).toHaveLength(2);
});
