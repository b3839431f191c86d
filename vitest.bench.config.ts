// `npm run test:bench`: the bench's slow smoke run (every scenario in quick mode), kept out of
// `npm test` for its minutes; the same settings as vitest.config.ts otherwise.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/**/*.smoke.ts'], testTimeout: 300_000 },
});
