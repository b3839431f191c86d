// @module-tag processes
// The ops console reads right, in a real browser (Debian's chromium driven by playwright-core,
// headless, nothing downloaded): table headers line up with their cells (the body stays a table
// body); transitions show whole status words; item ids show their last digits (which differ
// between items of one second, unlike an ObjectId's first eight) and copy whole; nothing
// overflows at 1280 px or 420 px, a long kind included (screenshots of both; `npm run
// screenshots` saves them in docs/); the last transitions are there on open; a stale "could not
// refresh" notice is cleared on reconnect; and a worker key opens only the feed it may (no
// refusal shown). At 1280 and 420 px (issue 37 item 7): no list ends mid-row (a scrolling box is
// cut on a row's edge), every card is as tall as what it holds, numbers' headers sit over their
// numbers (the item page's Version included), a row with a Requeue button is as tall as one
// without, nothing the page loads answers 404 (its favicon included), and the moves chart says
// how many moves the process answered since it started, those made before the page opened too.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/access/roles.ts';
import { consoleAddress, type ConsoleBrowser, launchConsoleBrowser, TEST_REFRESH_SECONDS } from '../support/browser.ts';
import { droppableSockets } from '../support/droppableSockets.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { saveScreenshot } from '../support/screenshots.ts';
import { waitFor } from '../support/waiting.ts';

/** The longest kind the API takes (64 characters): the worst case for a table cell. */
const LONG_KIND = `Payout.${'x'.repeat(48)}_retry_v2`;

// Browser-side checks, as source text: this project's TypeScript has no DOM library.
/** Where each header of the transitions table sits against the first row's cell (px off, summed). */
const ALIGNMENT = `(() => {
  const table = document.getElementById('transitions');
  const heads = [...table.tHead.rows[0].cells].map((th) => th.getBoundingClientRect());
  const cells = [...table.tBodies[0].rows[0].cells].map((td) => td.getBoundingClientRect());
  return { display: getComputedStyle(table.tBodies[0]).display, offsets: heads.map((head, i) => Math.abs(head.left - cells[i].left) + Math.abs(head.width - cells[i].width)) };
})()`;
/** Every element that sticks out sideways: of the page, of its card, or of its table's scrolling box. */
const OVERFLOWS = `(() => {
  const out = [];
  if (document.documentElement.scrollWidth > window.innerWidth) out.push('page ' + document.documentElement.scrollWidth + ' > ' + window.innerWidth);
  for (const section of document.querySelectorAll('section')) {
    const name = section.getAttribute('aria-labelledby');
    const box = section.getBoundingClientRect();
    for (const element of section.querySelectorAll('button, th, td, input')) {
      const inner = element.getBoundingClientRect();
      const scroller = element.closest('.scroll');
      const limit = scroller ? scroller.getBoundingClientRect() : box;
      if (inner.width > 0 && (inner.left < limit.left - 1 || inner.right > limit.right + 1)) out.push(element.tagName + ' "' + (element.textContent || '').slice(0, 30) + '" in ' + name);
    }
    for (const scroller of section.querySelectorAll('.scroll')) if (scroller.scrollWidth > scroller.clientWidth + 1) out.push('a table wider than its card in ' + name);
  }
  return out;
})()`;

/**
 * Layout faults at the current width: a scrolling box whose visible bottom cuts a row, a card
 * much taller than what it holds, a header aligned unlike its column's cells, rows of one table
 * of different heights (`uniformTables`, their rows of the short kind "layout": one line each).
 */
const LAYOUT = `((uniformTables) => {
  const out = [];
  for (const box of document.querySelectorAll('.scroll')) {
    if (box.offsetParent === null) continue;
    box.scrollTop = 0;
    const rows = [...box.querySelectorAll('tbody tr')];
    if (box.scrollHeight <= box.clientHeight + 1) continue;
    const bottom = box.getBoundingClientRect().top + box.clientTop + box.clientHeight;
    const edges = rows.map((row) => row.getBoundingClientRect().bottom);
    if (!edges.some((edge) => Math.abs(edge - bottom) <= 1.5)) out.push('a row cut at the bottom of ' + box.querySelector('table').id + ' (' + bottom.toFixed(1) + ' not on a row edge)');
  }
  for (const section of document.querySelectorAll('#console section')) {
    if (section.offsetParent === null) continue;
    const last = [...section.children].filter((child) => child.offsetParent !== null).at(-1);
    const gap = section.getBoundingClientRect().bottom - last.getBoundingClientRect().bottom;
    if (gap > 24) out.push('card ' + section.getAttribute('aria-labelledby') + ' has ' + Math.round(gap) + ' px empty under its content');
  }
  const align = (element) => { const value = getComputedStyle(element).textAlign; return value === 'start' ? 'left' : value === 'end' ? 'right' : value; };
  for (const table of document.querySelectorAll('#console table')) {
    const head = table.tHead?.rows[0];
    const row = table.tBodies[0]?.rows[0];
    if (!head || !row || table.offsetParent === null || getComputedStyle(table.tHead).position === 'absolute') continue;
    [...head.cells].forEach((th, i) => {
      if (row.cells[i] && align(th) !== align(row.cells[i])) out.push(table.id + ': header "' + th.textContent + '" is ' + align(th) + ', its cells ' + align(row.cells[i]));
    });
  }
  for (const id of uniformTables) {
    const rows = [...document.querySelectorAll('#' + id + ' tbody tr')].filter((row) => row.querySelector('td.kind')?.textContent === 'layout');
    const heights = rows.map((row) => row.getBoundingClientRect().height);
    if (heights.length && Math.max(...heights) - Math.min(...heights) > 1) out.push(id + ': rows ' + Math.min(...heights).toFixed(1) + ' to ' + Math.max(...heights).toFixed(1) + ' px tall');
  }
  return out;
})`;

describe('the ops console reads right', () => {
  let app: TestApp;
  let browser: ConsoleBrowser;
  let consoleUrl: string;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0' } });
    browser = await launchConsoleBrowser(app.url);
    consoleUrl = consoleAddress(app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function signIn(role: Role, width = 1280): Promise<Page> {
    const before = app.services.liveFeeds.workItems.subscriberCount;
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(consoleUrl);
    await page.getByLabel('API key').fill(app.keys[role]);
    await page.keyboard.press('Enter');
    await page.locator('#who', { hasText: `Signed in as ${role}` }).waitFor();
    if (role !== 'dashboard')
      await waitFor(() => app.services.liveFeeds.workItems.subscriberCount > before, 'the page to subscribe');
    return page;
  }

  async function closePage(page: Page): Promise<void> {
    await page.close();
    await waitFor(() => app.services.liveFeeds.workItems.subscriberCount === 0, 'the page to unsubscribe');
  }

  async function createItem(kind: string, key: string, maxAttempts = 5): Promise<string> {
    const created = await app.gql(
      `mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) { ... on CreateWorkItemSuccess { item { id } } } }`,
      { input: { kind, idempotencyKey: key, maxAttempts } },
      { key: 'service' },
    );
    return created.data.createWorkItem.item.id as string;
  }

  async function failedItem(kind: string, key: string): Promise<string> {
    const id = await createItem(kind, key, 1);
    const claim = await app.gql(
      `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) { ... on ClaimSuccess { item { version } } } }`,
      { input: { id, workerId: 'reads-right' } },
      { key: 'worker' },
    );
    const version = claim.data.claimWorkItem.item.version as number;
    await app.gql(
      `mutation ($input: CompleteWorkItemInput!) { completeWorkItem(input: $input) { __typename } }`,
      { input: { id, workerId: 'reads-right', version, outcome: 'FAILED' } },
      { key: 'worker' },
    );
    return id;
  }

  const row = (page: Page, table: string, itemId: string) => page.locator(`#${table} tr[data-item-id="${itemId}"]`);

  it('shows the last transitions on open, whole status words, ids that differ, headers aligned with cells', async () => {
    // Made before the page opens, within one second: their ObjectIds share the first 8 digits.
    const ids = [await createItem('reads-right', 'rr-1'), await createItem('reads-right', 'rr-2')];
    const failed = await failedItem('reads-right', 'rr-failed');
    const page = await signIn('ops');
    for (const id of [...ids, failed]) await row(page, 'transitions', id).first().waitFor();
    const shown = await Promise.all(
      ids.map((id) => row(page, 'transitions', id).first().locator('td.id code').innerText()),
    );
    expect(new Set(shown).size).toBe(2);
    expect(shown.map((text) => text.slice(-10))).toEqual(ids.map((id) => id.slice(-10)));

    const status = row(page, 'transitions', failed).first().locator('td.status');
    expect(await status.innerText()).toBe('PROCESSING → FAILED');
    expect(await status.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);

    const aligned = (await page.evaluate(ALIGNMENT)) as { display: string; offsets: number[] };
    expect(aligned.display).toBe('table-row-group');
    expect(Math.max(...aligned.offsets)).toBeLessThan(1);

    await row(page, 'transitions', ids[0]!)
      .first()
      .getByRole('button', { name: `Copy id ${ids[0]}` })
      .click();
    await page.locator('#notice', { hasText: ids[0]! }).waitFor();
    await closePage(page);
  });

  it.each([1280, 420])(
    'nothing overflows at %i px, a 64-character kind included; saves its screenshot',
    async (width) => {
      await failedItem(LONG_KIND, `rr-long-${width}`);
      const page = await signIn('ops', width);
      await page.locator('#failed button.requeue').first().waitFor();
      await page.locator('#transitions td', { hasText: LONG_KIND }).first().waitFor();
      const overflow = (await page.evaluate(OVERFLOWS)) as string[];
      expect(overflow).toEqual([]);
      await saveScreenshot(page, `console-${width}.png`, { fullPage: true });
      await closePage(page);
    },
  );

  it.each([1280, 420])(
    'at %i px: lists end on a row, cards fit their content, headers sit over their columns, rows with buttons are as tall, no 404',
    async (width) => {
      const failed = await failedItem('layout', `layout-failed-${width}`);
      // Enough transitions to scroll their box, whatever the width.
      await Promise.all(Array.from({ length: 30 }, (_, i) => createItem('layout', `layout-${width}-${i}`)));
      const missing: string[] = [];
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      page.on('response', (response) => {
        if (response.status() >= 400) missing.push(`${response.status()} ${response.url()}`);
      });
      const before = app.services.liveFeeds.workItems.subscriberCount;
      try {
        await page.goto(consoleUrl);
        await page.getByLabel('API key').fill(app.keys.ops);
        await page.keyboard.press('Enter');
        await waitFor(() => app.services.liveFeeds.workItems.subscriberCount > before, 'the page to subscribe');
        await row(page, 'failed', failed).waitFor();
        await waitFor(
          async () => (await page.locator('#transitions tbody tr').count()) >= 30,
          'the transitions to show',
        );
        // The item page, with its history table (the Version header), opened from the list.
        await page
          .getByRole('button', { name: `Open item ${failed}` })
          .first()
          .click();
        await page.locator('#item-history tbody tr').first().waitFor();
        await page.locator('#queue tbody tr').first().waitFor();
        // The boxes are fitted a frame after their rows change.
        await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
        expect(await row(page, 'transitions', failed).locator('button.requeue').count()).toBeGreaterThan(0);
        const faults = (await page.evaluate(
          `${LAYOUT}(${JSON.stringify(width === 1280 ? ['transitions', 'failed'] : [])})`,
        )) as string[];
        expect(faults).toEqual([]);
        expect(missing).toEqual([]);
        const icon = await page.evaluate(
          () =>
            (
              globalThis as unknown as { document: { querySelector(selector: string): { href: string } | null } }
            ).document.querySelector('link[rel=icon]')?.href,
        );
        expect((await fetch(icon!)).status).toBe(200);
      } finally {
        await closePage(page);
      }
    },
    90_000,
  );

  it('says how many moves the process answered since it started, those made before the page opened included', async () => {
    await app.gql(
      'mutation { openAccount(input: { accountId: "rr-moves", currency: "EUR" }) { __typename } }',
      {},
      { key: 'service' },
    );
    for (let i = 0; i < 20; i++)
      await app.gql(
        `mutation { deposit(input: { accountId: "rr-moves", amount: 100, requestId: "rr-moves-${i}" }) { __typename } }`,
        {},
        { key: 'service' },
      );
    const page = await signIn('ops');
    await page.locator('#moves-total', { hasText: /^20$/ }).waitFor();
    expect(await page.locator('#moves-totals').innerText()).toBe('applied 20, refused 0, replayed 0, transient 0');
    await closePage(page);
  });

  it('clears a stale "could not refresh" notice once the connection is back', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const sockets = await droppableSockets(page);
    const before = app.services.liveFeeds.workItems.subscriberCount;
    // Polled every TEST_REFRESH_SECONDS: a refresh fails soon after the API's answers do.
    await page.goto(consoleAddress(app.url, { refreshSeconds: TEST_REFRESH_SECONDS }));
    await page.getByLabel('API key').fill(app.keys.ops);
    await page.keyboard.press('Enter');
    await waitFor(() => app.services.liveFeeds.workItems.subscriberCount > before, 'the page to subscribe');
    // The page's requests to the API fail, then hang: no refresh succeeds from then on (the next
    // starts only once the last one settled), so what clears the notice is the connection coming
    // back, not a refresh that went through.
    let requests: 'fail' | 'hold' = 'fail';
    // A request held is one the handler leaves unanswered.
    await page.route('**/graphql', (route) => (requests === 'fail' ? route.abort('failed') : undefined));
    await page.locator('#notice[data-kind="poll"]', { hasText: 'Could not refresh' }).waitFor({ timeout: 10_000 });
    requests = 'hold';
    sockets.drop({ hold: true });
    await page.locator('#connection[data-status="disconnected"]').waitFor();
    sockets.resume();
    await page.locator('#connection', { hasText: 'reconnected' }).waitFor();
    await page.locator('#notice').waitFor({ state: 'hidden' });
    // Removing the handler lets the held requests and any later ones through.
    await page.unroute('**/graphql');
    await closePage(page);
  });

  it('opens only the feeds a worker key may: work items live, the ledger polled, no refusal shown', async () => {
    const page = await signIn('worker');
    await page
      .locator('#connection', { hasText: 'Live updates (work items): live; ledger entries refresh every few seconds' })
      .waitFor();
    const id = await createItem('reads-right-worker', 'rr-worker');
    await row(page, 'transitions', id).first().waitFor();
    expect(await page.locator('#notice').isHidden()).toBe(true);
    expect(app.services.liveFeeds.ledgerEntries.subscriberCount).toBe(0);
    await closePage(page);
  });
});
