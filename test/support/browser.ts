// Debian's chromium, driven by playwright-core: headless, offline, never downloaded by a tool.
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  const executablePath = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  return chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
}

/**
 * How often a console page a test opens refreshes its polled panels (queue, charts, schedules):
 * `?refresh=` in its address (src/console/refresh.ts). A test that waits for a poll or two (a
 * chart's next point, a schedule's last fire) waits this, not the page's default 3 s.
 */
export const TEST_REFRESH_SECONDS = 0.25;

/**
 * The console's address on the API at `apiUrl` (its /graphql): with `refreshSeconds`, the page
 * polls that often (TEST_REFRESH_SECONDS for a test that waits on polls); without, every 3 s as
 * a user's page does.
 */
export function consoleAddress(apiUrl: string, options: { refreshSeconds?: number } = {}): string {
  const page = apiUrl.replace(/\/graphql$/, '/console');
  return options.refreshSeconds === undefined ? page : `${page}?refresh=${options.refreshSeconds}`;
}
