// Entry point of `npm run bench`; see runBench.ts and docs/benchmarks.md.
import 'reflect-metadata';
import { runBench } from './runBench.ts';

process.exitCode = await runBench({
  argv: process.argv.slice(2),
  env: process.env,
  write: (line) => process.stdout.write(`${line}\n`),
});
