/** Server tests: HTTP into the real app on a real database (SQLite by default, MySQL when TEST_MYSQL_URL is set, PostgreSQL when TEST_PG_URL is). */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/src/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/web/', '/test/e2e-web/'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  testTimeout: 60000,
  maxWorkers: 2,
};
