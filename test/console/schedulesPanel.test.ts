// @module-tag processes
// The ops console's schedules panel, in a real browser (Debian's chromium through playwright-core):
// a schedule made through the API is listed with its cron, zone and next fire, and its last fire
// shows once the firer has fired a period (the page polls).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAddress, type ConsoleBrowser, launchConsoleBrowser, TEST_REFRESH_SECONDS } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

describe('ops console: schedules', () => {
  let app: TestApp;
  let browser: ConsoleBrowser;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0' } });
    browser = await launchConsoleBrowser(app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists each schedule with its next and last fire', async () => {
    const made = await app.gql(
      `mutation ($input: ScheduleWorkInput!) { scheduleWork(input: $input) { __typename } }`,
      { input: { name: 'console-every-2s', kind: 'TICK', cron: '*/2 * * * * *', timeZone: 'Europe/Paris' } },
      { key: 'service' },
    );
    expect(made.data?.scheduleWork.__typename).toBe('ScheduleWorkSuccess');
    const page = await browser.newPage();
    try {
      // Polled every TEST_REFRESH_SECONDS: the last fire shows at the first poll after it.
      await page.goto(consoleAddress(app.url, { refreshSeconds: TEST_REFRESH_SECONDS }));
      await page.getByLabel('API key').fill(app.keys.dashboard);
      await page.keyboard.press('Enter');
      const row = page.locator('#schedules tbody tr', { hasText: 'console-every-2s' });
      await row.waitFor();
      expect(await row.locator('td').nth(2).textContent()).toBe('*/2 * * * * * Europe/Paris, catch-up LATEST');
      expect(await row.locator('td').nth(3).textContent()).toMatch(/\d/);
      await page.locator('#schedules tbody tr td:nth-child(5)', { hasText: 'fired' }).waitFor({ timeout: 30_000 });
    } finally {
      await page.close();
    }
  }, 60_000);
});
