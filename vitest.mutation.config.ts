// The vitest configuration Stryker runs (`npm run test:mutation`): the main one, narrowed to the
// service-level work-item tests. The HTTP tests and the 2,000-item drain cover the same write
// path at seconds per run, which, times every mutant, this machine cannot pay.
import { defineConfig } from 'vitest/config';
import base, { sharedTest } from './vitest.config.ts';

export default defineConfig({
  resolve: base.resolve,
  test: {
    ...sharedTest,
    globalSetup: ['test/globalSetup.ts'],
    include: ['test/work/**/*.test.ts'],
    exclude: ['test/work/http.test.ts', 'test/work/readmeWorkerLoop.test.ts', 'test/work/drain.test.ts'],
    reporters: ['default'],
  },
});
