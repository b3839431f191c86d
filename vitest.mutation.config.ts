// The vitest configuration Stryker runs (`npm run test:mutation`): the main one, narrowed to the
// work-item tests, the suite that covers src/work.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/work/**/*.test.ts'], reporters: ['default'] },
});
