/** Browser tests: the real built server plus Debian's Chromium, run one file at a time. */
module.exports = {
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.e2e.ts'],
  testEnvironment: 'node',
  // otplib's ESM-only dependencies (@scure/base, @noble/hashes) are compiled to CommonJS for jest, as in the server tests.
  transform: { '^.+\\.ts$': ['@swc/jest'], '^.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  transformIgnorePatterns: ['/node_modules/(?!(@scure|@noble)/)(?!.*/node_modules/)'],
  testTimeout: 120000,
  maxWorkers: 1,
};
