import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * The walls between folders (README, "The parts"), as lint rules so they hold for the next engineer.
 * Flat config does not merge one rule across blocks (the last block matching a file wins), so each file
 * gets exactly one list: the walls of its folder. test/lint/walls.test.ts checks a wrong import fails.
 */
const folder = (name) => [`**/${name}`, `**/${name}/**`];
const ui = { group: ['react', 'react/**', 'react-dom', 'react-dom/**', '@fluentui/**'], message: 'UI code belongs in src/taskpane.' };
const office = { group: ['@microsoft/office-js', '@microsoft/office-js/**'], message: 'Office.js is loaded by taskpane.html and used only in src/workbook/excel.' };
const nodeOnly = {
  group: ['node:*', 'fs', 'fs/**', 'path', 'http', 'https', 'net', 'os', 'stream', 'crypto', 'undici', 'fastify', 'pino', 'ioredis'],
  message: 'The core runs in the browser too: no Node built-ins or server packages (they belong in relay, sandbox, cli).',
};
// src/identity but not src/contracts/identity.ts (the sign-in contract both sides import): no bare `**/identity`.
const identityFolder = ['**/identity/**', '../identity', '../../identity', '../../../identity'];
const servers = { group: [...folder('relay'), ...folder('cli'), ...folder('check'), ...folder('connect'), ...identityFolder], message: 'Servers and the CLI are not part of the add-in.' };
// The sandbox too, except the sample of its standing data: pure (no Node), it is what example requests are
// typed from, in the import report and in the taskpane alike (src/writeback/environment/example.ts).
const sandbox = { regex: '(^|/)sandbox(/(?!data/sample$).*)?$', message: servers.message };
const ui_folder = { group: folder('taskpane'), message: 'The taskpane uses the core, never the other way round.' };
const adapters = {
  group: [...folder('workbook/excel'), ...folder('workbook/memory'), ...folder('workbook/file')],
  message: 'Use a workbook through WorkbookPort (src/workbook/port); the adapters are chosen in src/taskpane/index.tsx.',
};
const above = (names, why) => ({ group: names.flatMap(folder), message: why });
const noWriteback = above(['writeback'], 'Read a flow from its description in src/contracts/flows; the write-back is add-in code.');
const core = [ui, office, nodeOnly, servers, sandbox, ui_folder];
const wall = (files, patterns, ignores = []) => ({ files, ignores, rules: { 'no-restricted-imports': ['error', { patterns }] } });
const walls = [
  wall(['src/catalog/**'], [...core, above(['client', 'sheet', 'workbook', 'loading', 'writeback'], 'The catalogue is the bottom layer: it imports no other part.')]),
  wall(['src/client/**'], [...core, above(['sheet', 'workbook', 'loading', 'writeback'], 'The client knows the catalogue only.')]),
  wall(['src/sheet/**'], [...core, above(['writeback', 'client', 'workbook', 'loading'], 'Row conversion knows the catalogue only.')]),
  wall(['src/workbook/**'], [...core, above(['writeback', 'loading'], 'The workbook port knows neither its use cases (loading) nor write-back.')], ['src/workbook/excel/**', 'src/workbook/memory/**', 'src/workbook/file/**']),
  wall(['src/loading/**'], [...core, adapters, above(['writeback'], 'Loading does not know write-back.')]),
  wall(['src/register/**'], [...core, above(['workbook', 'writeback'], 'A register is read through the client and loaded by src/loading: it knows neither the workbook nor write-back.')]),
  wall(['src/workbook/excel/**', 'src/workbook/memory/**'], [...core, above(['writeback', 'loading'], 'Adapters implement the port; they do not use the flows.')]),
  // The saved-file adapter runs in Node only (the CLI): files and zlib, but no UI, no Office.js, no use cases.
  wall(['src/workbook/file/**'], [ui, office, ui_folder, servers, sandbox, above(['writeback', 'loading'], 'Adapters implement the port; they do not use the flows.')]),
  wall(['src/writeback/**'], [...core, adapters]),
  // Inside write-back: flows, rows, checks and the environment are used by a post's run, never the other way.
  wall(
    ['src/writeback/flows/**', 'src/writeback/rows/**', 'src/writeback/checks/**', 'src/writeback/environment/**'],
    [...core, adapters, { group: ['**/post', '**/post/**'], message: 'Flows, rows, checks and the environment do not know how a post runs: src/writeback/post uses them.' }],
  ),
  // The one bound-environment builder every door uses (relay, taskpane, commands): in the add-in, so core rules.
  wall(['src/environment/**'], [...core, above(['client', 'sheet', 'workbook', 'loading', 'writeback'], 'The environment is built from the catalogue and the relay contract only.')]),
  wall(['src/taskpane/**'], [servers, sandbox, office, nodeOnly, adapters], ['src/taskpane/index.tsx', 'src/taskpane/preview/**']),
  wall(['src/taskpane/index.tsx', 'src/taskpane/preview/**'], [servers, sandbox, office, nodeOnly]),
  // The relay, the sandbox, sign-in and the binding importer know what a flow is from its description
  // (src/contracts/flows), never the add-in's write-back: the relay would carry the add-in's code.
  wall(['src/relay/**', 'src/sandbox/**', 'src/identity/**', 'src/binding/**'], [ui, office, ui_folder, noWriteback]),
  wall(['src/cli/**', 'src/check/**', 'src/connect/**', 'src/binding-report/**'], [ui, office, ui_folder]),
  // What every part reads (the relay's routes, sign-in, evidence, the flows' descriptions): the catalogue only.
  wall(['src/contracts/**'], [...core, above(['client', 'sheet', 'workbook', 'loading', 'writeback', 'environment'], 'Contracts are read by every part: they import the catalogue only.')]),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bin/**', '*.config.js', '*.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/taskpane/**/*.tsx', 'src/taskpane/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...walls,
  {
    // Plain CommonJS run by node before anything is installed (npm test's preflight).
    files: ['scripts/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: Object.fromEntries(
        ['require', '__dirname', 'process', 'console', 'fetch', 'Buffer', 'URL', 'setTimeout', 'clearTimeout'].map(
          (name) => [name, 'readonly'],
        ),
      ),
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Office.js lives only in the Excel adapter and the taskpane's entry; the core stays host-free.
    files: ['src/catalog/**', 'src/client/**', 'src/sheet/**', 'src/loading/**', 'src/writeback/**'],
    rules: { 'no-restricted-globals': ['error', 'Office', 'Excel', 'OfficeRuntime'] },
  },
);
