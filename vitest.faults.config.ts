// `npm run test:faults`: the long fault-injection run (test/faults/*.faults.ts), kept out of
// `npm test` for its minutes; the same settings as vitest.config.ts otherwise.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/faults/**/*.faults.ts'], testTimeout: 1_200_000, hookTimeout: 120_000, fileParallelism: false },
});
