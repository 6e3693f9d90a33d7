import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

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
      'no-restricted-imports': ['error', { patterns: [] }],
    },
  },
  {
    // Office.js lives only in the Excel adapter and the taskpane's entry; the core stays host-free.
    files: ['src/catalog/**', 'src/client/**', 'src/sheet/**', 'src/writeback/**'],
    rules: { 'no-restricted-globals': ['error', 'Office', 'Excel', 'OfficeRuntime'] },
  },
);
