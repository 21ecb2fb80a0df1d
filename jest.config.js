// Native ESM jest (run with --experimental-vm-modules) + swc: measured fastest here
// (docs/dependencies.md), and it runs ESM-only got without the typescript package's compiler API.
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec', '<rootDir>/bench'],
  testMatch: ['**/*.spec.ts'],
  // Jest's 5 s default ran out for crawls that take about a second on an idle machine (media-s3-acl,
  // login-crawl, warc-media, spider-loader: one each in the CI runs of 2026-12-07 on 2 busy cores). A test
  // that measures time asserts it itself; a hang still fails, at 30 s.
  testTimeout: 30_000,
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }],
  },
};
