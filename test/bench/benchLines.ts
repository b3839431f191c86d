// How the bench's tests run it and read what it prints: runBench in-process on the test engine,
// every line kept, and the shape of one measurement's line.
import { runBench } from '../../bench/runBench.ts';
import { testMongoUri } from '../support/mongo.ts';

/** Runs `npm run bench` with `argv` on the test engine; returns its exit code and printed lines. */
export async function bench(argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runBench({ argv, env: { MONGODB_URI: testMongoUri() }, write: (line) => void lines.push(line) });
  return { code, lines };
}

/** A measurement's line: its count of operations, no errors, and its target met or missed. */
export const figureLine = (name: string) =>
  new RegExp(`^${name}\\s+\\d+ ops .* errors 0 .*\\| target .*: (MET|MISSED)$`);
