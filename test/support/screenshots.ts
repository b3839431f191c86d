// Where the console tests save their screenshots. A test run must not rewrite tracked files, so
// they go to a temporary folder unless `npm run screenshots` asks for docs/ (SCREENSHOT_DIR=docs).
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function screenshotPath(name: string): string {
  const dir = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'precondition-screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
