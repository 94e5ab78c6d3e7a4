/** Server tests: HTTP into the real app on a real database (SQLite by default, MySQL when TEST_MYSQL_URL is set, PostgreSQL when TEST_PG_URL is). */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/src/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/web/', '/test/e2e-web/'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' }, module: { type: 'commonjs' } }],
    // otplib's base32 and hash plugins (@scure/base, @noble/hashes) ship only as ES modules, which jest cannot require.
    '^.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@scure|@noble)/)(?!.*/node_modules/)'],
  testTimeout: 60000,
  maxWorkers: 2,
  // PostgreSQL and MariaDB runs: migrated template databases that the test apps' scratch databases copy.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
