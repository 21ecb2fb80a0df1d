// Native ESM jest (run with --experimental-vm-modules) + swc: measured fastest here
// (docs/dependencies.md), and it runs ESM-only got without the typescript package's compiler API.
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec', '<rootDir>/bench'],
  testMatch: ['**/*.spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }],
  },
};
