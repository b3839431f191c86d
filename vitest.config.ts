import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // type-graphql loads graphql's CommonJS build; point every import at that one copy so that
    // schema objects are not "from another module or realm".
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    // type-graphql's decorators need the Reflect metadata API before any resolver file loads.
    setupFiles: ['reflect-metadata'],
    reporters: ['default', './test/support/summaryReporter.ts'],
    testTimeout: 30_000,
    // The emulator freezes each stored document version, so a mutation of shared history throws.
    env: { EMULATOR_FREEZE_DOCUMENTS: '1' },
    hookTimeout: 30_000,
  },
});
