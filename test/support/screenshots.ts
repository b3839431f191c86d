// The console tests' screenshots, for the README and docs/: taken only when `npm run screenshots`
// asks for them (SCREENSHOT_DIR=docs, or any folder). A plain test run takes none: a full-page
// screenshot cost about 0.3 s of chromium's CPU (more at 420 px, the page being taller) and
// checks nothing, and a test run must not rewrite tracked files anyway.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** Saves a screenshot of `page` as `name` in SCREENSHOT_DIR; does nothing when it is unset. */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const dir = process.env['SCREENSHOT_DIR'];
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, name), ...options });
}
