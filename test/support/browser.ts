// Debian's chromium, driven by playwright-core: headless, offline, never downloaded by a tool.
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';

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

export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const executablePath = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  return chromium.launch({ executablePath, headless: true, args: [...BROWSER_ARGS, ...extraArgs] });
}

/** A chromium for one file of console tests: `newPage` gives each test a page of its own. */
export interface ConsoleBrowser {
  /** A new page (a tab: its own sessionStorage, routes and listeners), 1280×720 unless `viewport` says. */
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * A chromium for a file of console tests on the API at `apiUrl`: one browser context (en-US, and
 * `timezoneId` if given) holding, beside the tests' pages, a page of the API's site (its /healthz,
 * a few bytes of JSON) that keeps the site's renderer process alive; with --process-per-site every
 * test's page runs in that process, warm after the first. A page signed in cost about 3.5 s of CPU
 * in a process of its own (the process started, its fonts loaded, the bundle compiled), about 1 s
 * in the warm one (measured on this machine), and the files open some twenty pages. What the pages share is the context's cookies,
 * localStorage and HTTP cache: the console uses none of them but the cache of its hashed assets
 * (console.test.ts checks it leaves localStorage empty); its key is in the tab's sessionStorage.
 */
export async function launchConsoleBrowser(
  apiUrl: string,
  options: { timezoneId?: string } = {},
): Promise<ConsoleBrowser> {
  const browser = await launchChromium(['--process-per-site']);
  try {
    const context = await browser.newContext({
      locale: 'en-US',
      ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }),
    });
    await (await context.newPage()).goto(new URL('/healthz', apiUrl).href);
    return {
      async newPage({ viewport } = {}) {
        const page = await context.newPage();
        if (viewport) await page.setViewportSize(viewport);
        return page;
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
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
