/**
 * The folder walls in eslint.config.mjs hold: a deliberately wrong import in each part fails lint, the
 * same part's allowed imports pass. The code is linted as if it lived at `filePath`; no file is written.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

// ESLint loads its flat config with a dynamic import, which jest's module sandbox refuses; one child
// process lints every case and prints the messages of no-restricted-imports per case.
const LINT_ALL = `
const { ESLint } = require('eslint');
const cases = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
(async () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const out = [];
  for (const [filePath, code] of cases) {
    const [r] = await eslint.lintText(code + '\\nexport const used = x;\\n', { filePath });
    out.push(r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message));
  }
  console.log(JSON.stringify(out));
})();
`;

function lintAll(cases: [string, string][]): string[][] {
  const out = execFileSync(process.execPath, ['-e', LINT_ALL], { cwd: ROOT, input: JSON.stringify(cases) });
  return JSON.parse(out.toString()) as string[][];
}

const failing: [string, string, string][] = [
  ['src/catalog/bad.ts', "import x from '../client';", 'catalogue is the bottom layer'],
  ['src/client/bad.ts', "import x from '../workbook/port';", 'client knows the catalogue only'],
  ['src/client/bad.ts', "import x from 'node:fs';", 'no Node built-ins'],
  ['src/sheet/bad.ts', "import x from '../writeback/post';", 'Row conversion knows the catalogue only'],
  ['src/sheet/bad.ts', "import type { Cell } from '../workbook/port';", 'Row conversion knows the catalogue only'],
  ['src/writeback/bad.ts', "import x from 'react';", 'UI code belongs in src/taskpane'],
  ['src/writeback/bad.ts', "import x from '../workbook/excel';", 'through WorkbookPort'],
  [
    'src/writeback/flows/bad.ts',
    "import x from '../../workbook/memory/memoryWorkbook';",
    'through WorkbookPort',
  ],
  ['src/writeback/rows/bad.ts', "import x from '../post/runner';", 'do not know how a post runs'],
  ['src/writeback/environment/bad.ts', "import x from '../post';", 'do not know how a post runs'],
  ['src/writeback/flows/bad.ts', "import x from 'react';", 'UI code belongs in src/taskpane'],
  ['src/workbook/bad.ts', "import x from '../taskpane/screen';", 'taskpane uses the core'],
  ['src/workbook/excel/bad.ts', "import x from 'undici';", 'no Node built-ins'],
  ['src/workbook/bad.ts', "import x from '../loading/load';", 'workbook port knows neither its use cases'],
  ['src/workbook/memory/bad.ts', "import x from '../../loading/loadrecords';", 'Adapters implement the port'],
  ['src/loading/bad.ts', "import x from '../workbook/excel';", 'through WorkbookPort'],
  ['src/loading/bad.ts', "import x from '../workbook/file';", 'through WorkbookPort'],
  ['src/workbook/file/bad.ts', "import x from '../../loading/load';", 'Adapters implement the port'],
  ['src/workbook/file/bad.ts', "import x from 'react';", 'UI code belongs in src/taskpane'],
  ['src/loading/bad.ts', "import x from '../taskpane/tables/ops';", 'taskpane uses the core'],
  ['src/loading/bad.ts', "import x from '../writeback/post';", 'Loading does not know write-back'],
  ['src/register/bad.ts', "import x from '../workbook/port';", 'knows neither the workbook nor write-back'],
  ['src/taskpane/components/Bad.tsx', "import x from '../../relay/server';", 'not part of the add-in'],
  ['src/taskpane/components/Bad.tsx', "import x from '../../workbook/excel';", 'through WorkbookPort'],
  ['src/relay/bad.ts', "import x from '../taskpane/screen';", 'taskpane uses the core'],
  ['src/identity/bad.ts', "import x from '../taskpane/screen';", 'taskpane uses the core'],
  ['src/taskpane/components/Bad.tsx', "import x from '../../identity/demo-provider';", 'not part of the add-in'],
  ['src/taskpane/writeback/Bad.tsx', "import x from '../../sandbox/data/tables';", 'not part of the add-in'],
  ['src/sandbox/bad.ts', "import x from '@fluentui/react-components';", 'UI code belongs in src/taskpane'],
  ['src/taskpane/connection/bad.ts', "import x from '../../connect/open';", 'not part of the add-in'],
  ['src/environment/bad.ts', "import x from 'node:fs';", 'no Node built-ins'],
  ['src/environment/bad.ts', "import x from '../connect/open';", 'not part of the add-in'],
  ['src/environment/bad.ts', "import x from '../writeback';", 'catalogue and the relay contract only'],
  ['src/connect/bad.ts', "import x from 'react';", 'UI code belongs in src/taskpane'],
  ['src/relay/bad.ts', "import x from '../writeback/flows';", 'from its description in src/contracts/flows'],
  ['src/binding/bad.ts', "import x from '../writeback/environment/example';", 'from its description in src/contracts/flows'],
  ['src/identity/bad.ts', "import x from '../writeback';", 'from its description in src/contracts/flows'],
  ['src/sandbox/rules/bad.ts', "import x from '../../writeback/flows/incidents';", 'from its description in src/contracts/flows'],
  ['src/contracts/flows/bad.ts', "import x from '../../writeback/flow';", 'they import the catalogue only'],
];
const passing: [string, string][] = [
  ['src/client/ok.ts', "import x from '../catalog';"],
  ['src/workbook/file/ok.ts', "import { readFileSync as x } from 'node:fs';"],
  ['src/writeback/ok.ts', "import x from '../workbook/port';"],
  ['src/writeback/post/ok.ts', "import { a } from '../flows'; import { b } from '../rows/validate'; import { c } from '../environment/context'; const x = [a, b, c];"],
  ['src/workbook/ok.ts', "import type { Cell } from '../sheet/cell-types';"],
  ['src/loading/ok.ts', "import { a } from '../workbook/port'; import { b } from '../client'; import { c } from '../sheet'; import { d } from '../catalog'; const x = [a, b, c, d];"],
  ['src/taskpane/tables/ok.ts', "import x from '../../loading/load';"],
  ['src/taskpane/index.tsx', "import x from '../workbook/excel';"],
  ['src/taskpane/preview/Ok.tsx', "import x from '../../workbook/memory';"],
  ['src/relay/ok.ts', "import x from 'node:http';"],
  ['src/taskpane/components/Ok.tsx', "import x from '@fluentui/react-components';"],
  ['src/taskpane/connection/ok.ts', "import x from '../../contracts/identity';"],
  ['src/taskpane/writeback/ok.ts', "import { sampleStanding as x } from '../../sandbox/data/sample';"],
  ['src/taskpane/connection/ok.ts', "import x from '../../environment/environment';"],
  ['src/relay/ok.ts', "import x from '../environment/environment';"],
  ['src/environment/ok.ts', "import { a } from '../catalog'; import { b } from '../contracts/environments'; const x = [a, b];"],
  ['src/connect/ok.ts', "import { a } from 'node:fs'; import { b } from '../environment/environment'; import { c } from '../relay/config'; const x = [a, b, c];"],
  ['src/relay/ok.ts', "import { FLOW_DESCRIPTIONS as x } from '../contracts/flows';"],
  ['src/binding/ok.ts', "import { FLOW_DESCRIPTIONS as x } from '../contracts/flows';"],
  ['src/binding-report/ok.ts', "import { a } from '../writeback/environment/example'; import { b } from '../binding'; const x = [a, b];"],
  ['src/contracts/flows/ok.ts', "import { PATH_GUID_FIELD as x } from '../../catalog';"],
];

describe('folder walls', () => {
  let failed: string[][];
  let passed: string[][];
  beforeAll(() => {
    const all = lintAll([...failing.map(([f, c]) => [f, c] as [string, string]), ...passing]);
    failed = all.slice(0, failing.length);
    passed = all.slice(failing.length);
  });

  it.each(failing.map((c, i) => [...c, i] as const))('%s: %s fails', (_file, _code, why, i) => {
    expect(failed[i]).toHaveLength(1);
    expect(failed[i]![0]).toContain(why);
  });

  it.each(passing.map((c, i) => [...c, i] as const))('%s: %s passes', (_file, _code, i) => {
    expect(passed[i]).toEqual([]);
  });
});
