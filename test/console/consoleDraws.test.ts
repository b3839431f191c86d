// @module-tag processes
// The ops console draws, in a real browser (Debian's chromium driven by playwright-core): money in
// its currency's units (integer minor units from the API, the currency's own fraction digits from
// Intl: cents for EUR, none for JPY), in the entries table and the
// account line; and charts over time of claim conflicts per minute and payout lag, one point per
// poll, the latest value written beside each; of moves per minute by result (applied, refused,
// replayed, transient: one line each, the legend in words) and of each live feed's subscribers
// and state (up, reopening...), readable at 420 px; an account's statement; and a work item's page: its transitions, attempts,
// the entry a payout pays out and the trace id of the withdrawal that made it (the app traces here,
// to an in-memory exporter, as it does with OTEL_EXPORTER_OTLP_ENDPOINT set).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { startTracing, type Tracing } from '../../src/observability/tracing.ts';
import { consoleAddress, type ConsoleBrowser, launchConsoleBrowser, TEST_REFRESH_SECONDS } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { eventually } from '../support/waiting.ts';
import { deposit, openAccount, withdraw } from '../support/callers.ts';
import { saveScreenshot } from '../support/screenshots.ts';

/** A clock time as the page writes it in en-US ("7:31:05 PM"). */
const CLOCK = '\\d{1,2}:\\d{2}:\\d{2}\\s[AP]M';

/** Moves the pointer over a chart's last stretch and returns its tooltip's text (time, then a line per series). */
async function tooltipAt(page: Page, chartId: string): Promise<string> {
  const canvas = page.locator(`#${chartId}`);
  const box = (await canvas.boundingBox())!;
  // Chart.js answers pointer moves: leave the canvas first, so a second reading moves again.
  await page.mouse.move(0, 0);
  // Inside the plot area (Chart.js shows no tooltip over the axes), towards its right end.
  await canvas.hover({ position: { x: Math.round(box.width * 0.8), y: Math.round(box.height / 3) } });
  const tip = page.locator(`#${chartId}-tip`);
  await tip.waitFor();
  return tip.innerText();
}

describe('the ops console draws', () => {
  let app: TestApp;
  let browser: ConsoleBrowser;
  let tracing: Tracing;
  beforeAll(async () => {
    tracing = startTracing({ exporter: new InMemorySpanExporter() });
    app = await startTestApp({ env: { SEED_DEMO: '0' } });
    browser = await launchConsoleBrowser(app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await tracing?.shutdown();
  });

  it("shows money in its currency's units and charts conflicts and payout lag over time", async () => {
    await openAccount(app, 'draw-eur', 'EUR');
    await openAccount(app, 'draw-jpy', 'JPY');
    await deposit(app, 'draw-eur', 1_234_567, 'draw-d1');
    await deposit(app, 'draw-jpy', 500, 'draw-d2');
    expect(await withdraw(app, 'draw-eur', 5, 'draw-w1')).toBe('WithdrawSuccess');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Polled every TEST_REFRESH_SECONDS (`/console?refresh=`, kept through the redirect to /console/):
    // the charts below wait a few polls, not 3 s periods.
    await page.goto(consoleAddress(app.url, { refreshSeconds: TEST_REFRESH_SECONDS }));
    await page.getByLabel('API key').fill(app.keys.ops);
    await page.keyboard.press('Enter');

    await page.locator('#who', { hasText: 'Signed in as ops' }).waitFor({ timeout: 5000 });
    expect(await page.locator('#refresh-period').innerText()).toBe(
      `Queue, charts and schedules refresh every ${TEST_REFRESH_SECONDS} s.`,
    );
    await page.locator('#entries tr', { hasText: '€12,345.67' }).first().waitFor();
    await page.locator('#entries tr', { hasText: 'draw-eur' }).filter({ hasText: '€0.05' }).first().waitFor();
    await page.locator('#entries tr', { hasText: 'draw-jpy' }).filter({ hasText: '¥500' }).first().waitFor();
    await page.getByLabel('Account id').fill('draw-eur');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.locator('#account', { hasText: 'draw-eur: €12,345.62 (version 2)' }).waitFor();
    // Its statement: newest first, a debit signed, each balance after it.
    await page.locator('#statement tbody tr').nth(1).waitFor();
    expect(await page.locator('#statement tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^withdrawal\s+-€0\.05\s+€12,345\.62\s/),
      expect.stringMatching(/^deposit\s+€12,345\.67\s+€12,345\.67\s/),
    ]);

    // One point per poll; the conflicts rate needs two polls for its first point. Then a
    // lost race: the next point rises above zero.
    await page.waitForFunction(`Number(document.getElementById('conflicts-chart').dataset.points) >= 1`, undefined, {
      timeout: 20_000,
    });
    const created = await app.gql(
      `mutation { createWorkItem(input: { kind: "draw", idempotencyKey: "draw-k" }) { ... on CreateWorkItemSuccess { item { id } } } }`,
      {},
      { key: 'service' },
    );
    const id = created.data.createWorkItem.item.id as string;
    const claim = `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) { __typename } }`;
    await app.gql(claim, { input: { id, workerId: 'draw-1', expectedVersion: 1 } }, { key: 'worker' });
    const lost = await app.gql(claim, { input: { id, workerId: 'draw-2', expectedVersion: 1 } }, { key: 'worker' });
    expect(lost.data.claimWorkItem.__typename).toBe('ConflictLost');

    await page.waitForFunction(
      `!/highest 0$/.test(document.getElementById('conflicts-chart-now').textContent)`,
      undefined,
      { timeout: 20_000 },
    );
    await page.waitForFunction(`Number(document.getElementById('lag-chart').dataset.points) >= 2`, undefined, {
      timeout: 20_000,
    });
    // The value under the pointer: its time on the time axis, and the value with its unit.
    expect(await tooltipAt(page, 'lag-chart')).toMatch(new RegExp(`^${CLOCK}\\nlag: \\d+ s$`));
    expect(await tooltipAt(page, 'conflicts-chart')).toMatch(new RegExp(`^${CLOCK}\\nclaims lost: \\d+\\.\\d/min$`));
    expect(await page.locator('#conflicts-chart-now').innerText()).toMatch(/^now \d+\.\d, highest \d+(\.\d)?$/);
    expect(await page.locator('#lag-chart-now').innerText()).toMatch(/^now \d+ s, highest \d+ s$/);
    await page.close();
  }, 60_000);

  it("charts moves per minute by result and each live feed's subscribers and state", async () => {
    await openAccount(app, 'draw-moves', 'EUR');
    await deposit(app, 'draw-moves', 1_000, 'draw-moves-d');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(consoleAddress(app.url, { refreshSeconds: TEST_REFRESH_SECONDS }));
    await page.getByLabel('API key').fill(app.keys.ops);
    await page.keyboard.press('Enter');
    // A rate needs two polls: once the first point is drawn, the moves below count in a later one.
    await page.waitForFunction(`Number(document.getElementById('moves-chart').dataset.points) >= 1`, undefined, {
      timeout: 20_000,
    });
    expect(await withdraw(app, 'draw-moves', 10, 'draw-moves-w1')).toBe('WithdrawSuccess');
    expect(await withdraw(app, 'draw-moves', 10, 'draw-moves-w1')).toBe('DuplicateReplayed');
    expect(await withdraw(app, 'draw-moves', 1_000_000, 'draw-moves-w2')).toBe('InsufficientFunds');
    expect(await withdraw(app, 'draw-moves', 2_000_000, 'draw-moves-w4')).toBe('InsufficientFunds');
    expect(await withdraw(app, 'draw-moves', 20, 'draw-moves-w3')).toBe('WithdrawSuccess');
    await deposit(app, 'draw-moves', 5, 'draw-moves-d2');
    // And a lost claim race, so that the screenshot shows every chart moving.
    const created = await app.gql(
      `mutation { createWorkItem(input: { kind: "draw", idempotencyKey: "draw-moves-k" }) { ... on CreateWorkItemSuccess { item { id } } } }`,
      {},
      { key: 'service' },
    );
    const claim = `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) { __typename } }`;
    const itemId = created.data.createWorkItem.item.id as string;
    await app.gql(claim, { input: { id: itemId, workerId: 'draw-moves-1', expectedVersion: 1 } }, { key: 'worker' });
    await app.gql(claim, { input: { id: itemId, workerId: 'draw-moves-2', expectedVersion: 1 } }, { key: 'worker' });
    // A subscription the page itself does not hold: the feed's line rises to it.
    const ws = app.ws('ops');
    const sub = ws.subscribe(`subscription ($ids: [ID!]!) { accountBalanceChanged(accountIds: $ids) { __typename } }`, {
      ids: ['draw-moves'],
    });

    await page.waitForFunction(
      `['applied', 'refused', 'replayed'].every((name) => Number(document.querySelector('#moves-chart-legend li[data-series="' + name + '"]')?.dataset.highest) > 0)`,
      undefined,
      { timeout: 20_000 },
    );
    await page.waitForFunction(
      `(() => { const feed = document.querySelector('#feeds-chart-legend li[data-series="accountBalances"]'); return feed?.dataset.up === 'true' && Number(feed.dataset.now) >= 1; })()`,
      undefined,
      { timeout: 20_000 },
    );
    await page.waitForFunction(
      `!/highest 0$/.test(document.getElementById('conflicts-chart-now').textContent)`,
      undefined,
      { timeout: 20_000 },
    );
    // Every class has its line and its legend, in words; nothing transient was answered.
    const legend = await page.locator('#moves-chart-legend li').allInnerTexts();
    expect(legend).toEqual(
      ['applied', 'refused', 'replayed', 'transient'].map((name) =>
        expect.stringMatching(new RegExp(`^${name}: now \\d+\\.\\d/min, highest \\d+\\.\\d$`)),
      ),
    );
    expect(legend[3]).toMatch(/highest 0\.0$/);
    // One line per class under the pointer, each value with its unit; one per feed likewise.
    expect((await tooltipAt(page, 'moves-chart')).split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${CLOCK}$`)),
      ...['applied', 'refused', 'replayed', 'transient'].map((name) =>
        expect.stringMatching(new RegExp(`^${name}: \\d+\\.\\d/min$`)),
      ),
    ]);
    expect(await page.locator('#feeds-chart-legend li[data-series="accountBalances"]').innerText()).toMatch(
      /^accountBalances: up, [1-9]\d* subscribers? \(highest \d+\)$/,
    );
    expect(await page.locator('#feeds-chart-legend li').count()).toBe(4);
    expect(
      (await tooltipAt(page, 'feeds-chart'))
        .split('\n')
        .slice(1)
        .map((line) => line.split(':')[0]),
    ).toEqual(['workItems', 'ledgerEntries', 'accountBalances', 'holds']);
    await saveScreenshot(page, 'console-charts.png', { fullPage: true });

    // At 420 px the legends wrap inside their card.
    await page.setViewportSize({ width: 420, height: 900 });
    const outside = await page.evaluate(
      `[...document.querySelectorAll('ul.legend li')].filter((li) => { const card = li.closest('section').getBoundingClientRect(); const box = li.getBoundingClientRect(); return box.left < card.left - 1 || box.right > card.right + 1; }).length`,
    );
    expect(outside).toBe(0);
    expect(await page.evaluate(`document.documentElement.scrollWidth <= window.innerWidth`)).toBe(true);
    // A feed whose stream is down says so in words, and its stretch of the chart is shaded.
    await app.services.liveFeeds.holds.stop();
    await page.waitForFunction(
      `document.querySelector('#feeds-chart-legend li[data-series="holds"]')?.dataset.up === 'false'`,
      undefined,
      { timeout: 20_000 },
    );
    // The gauge may say down a poll before the feed's state says STOPPED (the stream closes first):
    // the legend reads "down" for that poll, then "stopped".
    await page.waitForFunction(
      `document.querySelector('#feeds-chart-legend li[data-series="holds"] .state')?.innerText === 'stopped'`,
      undefined,
      { timeout: 20_000 },
    );
    expect(await page.locator('#feeds-chart-legend li[data-series="holds"]').getAttribute('data-up')).toBe('false');
    expect(await page.locator('#feeds-chart-legend li[data-series="accountBalances"] .state').innerText()).toBe('up');
    await page.waitForFunction(`Number(document.getElementById('feeds-chart').dataset.down) >= 1`, undefined, {
      timeout: 20_000,
    });
    expect(await page.locator('#feeds-chart-down').innerText()).toBe('Down in the last 3 minutes: holds (shaded).');
    sub.unsubscribe();
    await ws.close();
    await page.close();
  }, 60_000);

  it("opens a payout's page: its transitions, attempts, the entry it pays out and its withdrawal's trace id", async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    await openAccount(app, 'draw-item', 'EUR');
    await deposit(app, 'draw-item', 1_000, 'draw-item-d');
    const answer = await fetch(app.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${app.keys.service}`,
        traceparent: `00-${traceId}-b7ad6b7169203331-01`,
      },
      body: JSON.stringify({
        query:
          'mutation ($input: WithdrawInput!) { withdraw(input: $input) { ... on WithdrawSuccess { entry { id } } } }',
        variables: { input: { accountId: 'draw-item', amount: 100, requestId: 'draw-item-w' } },
      }),
    });
    const entryId = ((await answer.json()) as { data: { withdraw: { entry: { id: string } } } }).data.withdraw.entry.id;
    const payoutId = await eventually(async () => {
      const found = await app.gql(`query ($entryId: ID!) { payoutFor(entryId: $entryId) { id } }`, { entryId });
      expect(found.data.payoutFor).not.toBeNull();
      return found.data.payoutFor.id as string;
    });

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(consoleAddress(app.url));
    await page.getByLabel('API key').fill(app.keys.ops);
    await page.keyboard.press('Enter');
    await page
      .getByRole('button', { name: `Open item ${payoutId}` })
      .first()
      .click();
    await page.locator('#item-section').waitFor();
    expect(await page.locator('#item dd[data-term="Trace id"]').innerText()).toBe(traceId);
    expect(await page.locator('#item dd[data-term="Pays out entry"]').innerText()).toBe(entryId);
    expect(await page.locator('#item dd[data-term="Attempts"]').innerText()).toBe('0 of 5');
    expect(await page.locator('#item dd[data-term="Status"]').innerText()).toBe('PENDING (version 1)');
    expect(await page.locator('#item-history tbody tr').first().innerText()).toContain('∅');
    await saveScreenshot(page, 'console-item.png', { fullPage: true });
    await page.close();
  });
});
