// `npm run test:bench`: the bench's slow smoke run (every scenario in quick mode), kept out of
// `npm test` for its minutes; the same settings as vitest.config.ts otherwise.
import { defineConfig } from 'vitest/config';
import base, { sharedTest } from './vitest.config.ts';

export default defineConfig({
  resolve: base.resolve,
  test: {
    ...sharedTest,
    globalSetup: ['test/globalSetup.ts'],
    reporters: ['default', './test/support/summaryReporter.ts'],
    include: ['test/**/*.smoke.ts'],
    testTimeout: 300_000,
  },
});
