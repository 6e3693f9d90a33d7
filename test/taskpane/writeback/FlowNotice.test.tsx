import { renderToString } from 'react-dom/server';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { FlowNotice } from '../../../src/taskpane/writeback/FlowNotice';
import type { FlowAvailability } from '../../../src/writeback';

const render = (availability: FlowAvailability) =>
  renderToString(
    <FluentProvider theme={webLightTheme}>
      <FlowNotice flowTitle="Contracts" environment="PRD" availability={availability} />
    </FluentProvider>,
  );

test('an unavailable flow says so with the reason, and nothing about datasets it would read', () => {
  const html = render({
    post: {
      kind: 'unavailable',
      message: 'Contracts cannot be posted to PRD. Import the Swagger file (docs/binding.md).',
    },
    lacking: [{ id: 'thirdparty', title: 'Third parties', reason: 'missing', consequence: 'x' }],
  });
  expect(html).toContain('data-testid="wb-unavailable"');
  expect(html).toContain('Contracts: unavailable on PRD');
  expect(html).toContain('docs/binding.md');
  expect(html).not.toContain('wb-lacking');
});

test('an assumed path and lacking datasets are said before any template is made', () => {
  const html = render({
    post: { kind: 'confirm', message: 'Path assumed: Create contract at /x.' },
    lacking: [
      {
        id: 'thirdparty',
        title: 'Third parties',
        reason: 'missing',
        consequence: "Type the third party's GUID.",
      },
    ],
  });
  expect(html).toContain('data-testid="wb-assumed"');
  expect(html).toContain('Path assumed: Create contract at /x.');
  expect(html).toContain('data-testid="wb-lacking"');
  expect(html).toContain('PRD lacks a dataset this flow reads');
  expect(html).toMatch(
    /Third parties: this environment(&#x27;|')s binding does not have it\. Type the third party(&#x27;|')s GUID\./,
  );
});

test('a flow with everything it needs shows nothing', () => {
  expect(render({ post: { kind: 'ok' }, lacking: [] })).not.toContain('data-testid');
});

test('a step the environment lacks is said as skipped, the flow staying available', () => {
  const html = render({
    post: { kind: 'ok' },
    lacking: [],
    skipped: [
      {
        id: 'incident-hyperlink',
        what: 'hyperlink',
        column: 'Hyperlink',
        drop: true,
        message: "the hyperlink is not added: this environment's API file has no such operation",
      },
    ],
  });
  expect(html).toContain('data-testid="wb-skipped"');
  expect(html).toContain('Contracts on PRD: one step is skipped');
  expect(html).toMatch(
    /The hyperlink is not added: this environment(&#x27;|')s API file has no such operation\./,
  );
  expect(html).toContain('New templates have no Hyperlink column');
  expect(html).not.toContain('wb-unavailable');
});
