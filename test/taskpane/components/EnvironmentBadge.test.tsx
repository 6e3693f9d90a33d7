import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { renderToString } from 'react-dom/server';
import { EnvironmentBadge } from '../../../src/taskpane/components/EnvironmentBadge';

const render = (environment: { name: string; production: boolean } | null) =>
  renderToString(
    <FluentProvider theme={webLightTheme}>
      <EnvironmentBadge environment={environment} />
    </FluentProvider>,
  );

test('production is spelled out in the badge, not only coloured', () => {
  const html = render({ name: 'PRD', production: true });
  expect(html).toContain('PRODUCTION · PRD');
  expect(html).toContain('data-production="true"');
});

test('a test environment shows its name and no production warning', () => {
  const html = render({ name: 'ACC', production: false });
  expect(html).toContain('>ACC<');
  expect(html).not.toContain('PRODUCTION');
});

test('without a connection the badge says so', () => {
  expect(render(null)).toContain('Not connected');
});
