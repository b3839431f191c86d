// `npm run test:faults`: the long fault-injection run (test/faults/*.faults.ts), kept out of
// `npm test` for its minutes; the same settings as vitest.config.ts otherwise (one file at a time).
import { defineConfig } from 'vitest/config';
import base, { sharedTest } from './vitest.config.ts';

export default defineConfig({
  resolve: base.resolve,
  test: {
    ...sharedTest,
    globalSetup: ['test/globalSetup.ts'],
    reporters: ['default', './test/support/summaryReporter.ts'],
    include: ['test/faults/**/*.faults.ts'],
    testTimeout: 1_200_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
