const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' }, module: { type: 'commonjs' } }];
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': swc },
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/test/**/*.test.tsx'],
  testTimeout: 30000,
  // Two workers at least: jest's default (one less than the cores) runs a 2-core CI machine's files one at a
  // time, while most of the long files wait on a browser, a child process or loopback HTTP. The whole suite
  // passed with two workers on 2 cores at load average 11 (24 min, niced); quiet, it is the CI budget's margin.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  reporters: ['default', '<rootDir>/test/reporters/plain-summary.js'],
  // office-addin-mock needs only the OfficeApp enum from office-addin-manifest, whose main module pulls
  // ESM-only dependencies that jest's CommonJS runtime cannot require: point it at the enum's own module.
  // jose and oauth4webapi are ES modules only: compiled to CommonJS like our own code (Node 20's require of
  // ES modules is not used by jest's module runtime).
  transformIgnorePatterns: ['/node_modules/(?!(jose|oauth4webapi)/)'],
  moduleNameMapper: { '^office-addin-manifest$': '<rootDir>/node_modules/office-addin-manifest/lib/officeApp.js' },
};
