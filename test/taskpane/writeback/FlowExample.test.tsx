import { renderToString } from 'react-dom/server';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { sampleStanding } from '../../../src/sandbox/data/sample';
import { FlowExample } from '../../../src/taskpane/writeback/FlowExample';
import { bindEnvironment, flowExamples } from '../../../src/writeback';
import { incidentsFlow } from '../../../src/writeback/flows/incidents';
import type { ExtraColumn } from '../../../src/catalog';
import { bindingWith, place, type Change } from '../../writeback/binding-fixture';

/** An integer the file requires and no catalogue field fills: sent as a number, never as text. */
const severity: Change = (op) => {
  const x: ExtraColumn = { key: 'body:/severity', header: 'severity', in: 'body', at: '/severity', fileName: 'severity', cell: 'integer', encoding: { kind: 'plain', as: 'integer' }, required: true };
  return { ...op, extras: [...op.extras, x] };
};

const binding = bindingWith({
  'incident-create': [
    place('Name', { at: '/incident/title', fileName: 'title' }),
    place('ReportingOrganization', {
      at: '/incident/reportingOrganisation',
      fileName: 'reportingOrganisation',
      encoding: { kind: 'ref', list: 'organizations', value: 'name', idAt: '/Guid', nameAt: '/Name' },
    }),
    severity,
  ],
});

const render = (examples: ReturnType<typeof flowExamples>) =>
  renderToString(
    <FluentProvider theme={webLightTheme}>
      <FlowExample flowTitle="Incidents" environment="ACC" examples={examples} />
    </FluentProvider>,
  ).replace(/<!-- -->/g, '');

test("the flow's example request is folded, and shows method, path, content type and the body as sent", () => {
  const examples = flowExamples(incidentsFlow, bindEnvironment({ name: 'ACC', production: false, binding }), sampleStanding());
  const create = examples.find((x) => x.operation === 'incident-create')!;
  expect(JSON.parse(create.wire!.body!)).toMatchObject({
    incident: {
      title: 'Water in the server room',
      reportingOrganisation: { Guid: expect.any(String), Name: create.row['Reporting organization'] },
    },
  });
  expect(create.wire!.body).toMatch(/,"severity":3[,}]/);
  const html = render(examples);
  // The request's text, its lines' markup aside: what a reader (and innerText) gets.
  const text = html.replace(/<span[^>]*>|<\/span>/g, '');
  expect(html).toMatch(/<details[^>]*data-testid="wb-example"/);
  expect(html).not.toMatch(/<details[^>]* open/);
  expect(text).toContain(`POST ${create.wire!.target}\nContent-Type: application/json; charset=utf-8\n\n{\n  &quot;incident&quot;: {`);
  expect(text).toMatch(/\n {2}&quot;severity&quot;: 3,?\n/);
});

test('a sample row the environment refuses says why instead of a request', () => {
  const html = render([{ operation: 'incident-create', title: 'Create an incident', file: 'POST /x', row: {}, problems: ['Name: required'] }]);
  expect(html).toContain('The sample row is refused here: Name: required');
  expect(render([])).not.toContain('wb-example');
});
