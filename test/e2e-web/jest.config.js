/** Browser tests: the real built server plus Debian's Chromium, run one file at a time. */
module.exports = {
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.e2e.ts'],
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testTimeout: 120000,
  maxWorkers: 1,
};
