// @module-tag processes
// The ops console at /console, in a real browser: Debian's chromium driven by playwright-core,
// headless and offline (no browser is downloaded; the page loads nothing but this API). It proves:
// a transition made through the API shows in the page live (the test prints how long it took;
// a loaded machine makes that no pass/fail figure); requeue works from the page,
// by keyboard; a dashboard key gets no requeue button (and the server refuses it anyway); a
// dropped socket resumes from its last cursor without losing or doubling a row; the live list
// stays capped. It saves console.png, the screenshot the README shows (`npm run screenshots`
// saves it in docs/).
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/access/roles.ts';
import { consoleAddress, type ConsoleBrowser, launchConsoleBrowser, TEST_REFRESH_SECONDS } from '../support/browser.ts';
import { droppableSockets } from '../support/droppableSockets.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { deposit, openAccount } from '../support/callers.ts';
import { saveScreenshot } from '../support/screenshots.ts';
import { createItem } from '../fanout/support/streamsTest.ts';
import { WAIT_TIMEOUT_MS, waitFor } from '../support/waiting.ts';

/**
 * How long a live update may take to show before the test fails: a ceiling for a loaded machine,
 * not the console's speed. Each test measures and prints what it saw (`[console] … ms`).
 */
const SHOWS_WITHIN_MS = WAIT_TIMEOUT_MS;

describe('ops console', () => {
  let app: TestApp;
  let browser: ConsoleBrowser;
  let consoleUrl: string;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0' } });
    browser = await launchConsoleBrowser(app.url);
    consoleUrl = consoleAddress(app.url);
  });
  /** Pages a test opened and has not closed: a failed test's page is closed after it, so the next starts clean. */
  const openPages = new Set<Page>();
  afterEach(async () => {
    for (const page of openPages) await closePage(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /**
   * Opens the console and signs in by keyboard; for a role that may subscribe, waits until its
   * subscriptions are attached. `refreshSeconds`: the page's poll period, for a test that waits on a poll.
   */
  async function signIn(role: Role, options: { refreshSeconds?: number } = {}): Promise<Page> {
    const page = await browser.newPage();
    openPages.add(page);
    await signInOn(page, role, options);
    return page;
  }

  async function signInOn(page: Page, role: Role, options: { refreshSeconds?: number } = {}): Promise<void> {
    const before = app.services.liveFeeds.workItems.subscriberCount;
    await page.goto(consoleAddress(app.url, options));
    await page.getByLabel('API key').fill(app.keys[role]);
    await page.keyboard.press('Enter');
    await page.locator('#who', { hasText: `Signed in as ${role}` }).waitFor();
    if (role !== 'dashboard')
      await waitFor(() => app.services.liveFeeds.workItems.subscriberCount > before, 'the page to subscribe');
  }

  /** Closes a page and waits until its subscriptions have left the server, so the next count starts clean. */
  async function closePage(page: Page): Promise<void> {
    openPages.delete(page);
    await page.close();
    await waitFor(() => app.services.liveFeeds.workItems.subscriberCount === 0, 'the page to unsubscribe');
  }

  const row = (page: Page, table: string, itemId: string) => page.locator(`#${table} tr[data-item-id="${itemId}"]`);

  async function failedItem(key: string): Promise<string> {
    const created = await app.gql(
      `mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) { ... on CreateWorkItemSuccess { item { id } } } }`,
      { input: { kind: 'console', idempotencyKey: key, maxAttempts: 1 } },
      { key: 'service' },
    );
    const id = created.data.createWorkItem.item.id as string;
    const claim = await app.gql(
      `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) { ... on ClaimSuccess { item { version } } } }`,
      { input: { id, workerId: 'console-worker' } },
      { key: 'worker' },
    );
    const version = claim.data.claimWorkItem.item.version as number;
    const done = await app.gql(
      `mutation ($input: CompleteWorkItemInput!) { completeWorkItem(input: $input) { __typename ... on CompleteSuccess { item { status } } } }`,
      { input: { id, workerId: 'console-worker', version, outcome: 'FAILED', result: { reason: 'test' } } },
      { key: 'worker' },
    );
    expect(done.data.completeWorkItem).toEqual({ __typename: 'CompleteSuccess', item: { status: 'FAILED' } });
    return id;
  }

  it('serves the page from this process only, and keeps the key in sessionStorage', async () => {
    const page = await browser.newPage();
    openPages.add(page);
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(new URL(consoleUrl).origin)) foreign.push(request.url());
    });
    await page.goto(consoleUrl);
    await page.getByLabel('API key').fill(app.keys.ops);
    await page.getByRole('button', { name: 'Open console' }).click();
    await page.locator('#who', { hasText: 'Signed in as ops' }).waitFor();
    expect(
      await page.evaluate(() => ({
        session: (
          globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }
        ).sessionStorage.getItem('precondition.apiKey'),
        local: (globalThis as unknown as { localStorage: { length: number } }).localStorage.length,
      })),
    ).toEqual({ session: app.keys.ops, local: 0 });
    expect(foreign).toEqual([]);
    // Tests read the page's DOM; the page hangs nothing of its own on window for them.
    expect(await page.evaluate('typeof window.precondition')).toBe('undefined');
    // Opened without `?refresh=`, it polls as a user's page does.
    expect(await page.locator('#refresh-period').innerText()).toBe('Queue, charts and schedules refresh every 3 s.');
    await closePage(page);
  });

  it('shows a transition made through the API live, and a live balance; saves the screenshot', async () => {
    // The queue's FAILED row below comes with a poll.
    const page = await signIn('ops', { refreshSeconds: TEST_REFRESH_SECONDS });
    const id = await createItem(app, 'console', 'console-live');
    const answered = Date.now();
    await row(page, 'transitions', id).waitFor({ timeout: SHOWS_WITHIN_MS });
    const transitionMs = Date.now() - answered;
    expect(await row(page, 'transitions', id).innerText()).toContain('∅ → PENDING');

    await openAccount(app, 'console-acct');
    await deposit(app, 'console-acct', 1_250, 'console-dep-1');
    await page.getByLabel('Account id').fill('console-acct');
    await page.keyboard.press('Enter');
    await page.locator('#account', { hasText: 'console-acct: €12.50' }).waitFor();
    await deposit(app, 'console-acct', 750, 'console-dep-2');
    const deposited = Date.now();
    await page
      .locator('#account', { hasText: 'console-acct: €20.00 (version 2), held €0.00, available €20.00' })
      .waitFor({ timeout: SHOWS_WITHIN_MS });
    console.log(
      `[console] a transition showed ${transitionMs} ms after the API answered, a balance ${Date.now() - deposited} ms after the deposit did`,
    );
    // A hold changes what is available, not the balance: the page follows it live too.
    const hold = await app.gql(
      'mutation { authorizeHold(input: { requestId: "console-hold-1", accountId: "console-acct", amount: 300, expiresInSeconds: 600 }) { __typename } }',
      {},
      { key: 'service' },
    );
    expect(hold.data?.authorizeHold.__typename).toBe('AuthorizeHoldSuccess');
    await page
      .locator('#account', { hasText: 'console-acct: €20.00 (version 2), held €3.00, available €17.00' })
      .waitFor({ timeout: SHOWS_WITHIN_MS });
    await page.locator('#entries tr', { hasText: 'console-acct' }).first().waitFor();
    const failed = await failedItem('console-shot-failed');
    await row(page, 'failed', failed).waitFor();
    await page.locator('#queue tbody tr', { hasText: 'FAILED' }).first().waitFor();
    await page.locator('#projection-holder').filter({ hasNotText: '–' }).waitFor();
    await page.locator('#projection-sink', { hasText: 'work items' }).waitFor();
    await saveScreenshot(page, 'console.png', { fullPage: true });
    await closePage(page);
  });

  it('requeues a FAILED item from the page, by keyboard', async () => {
    const page = await signIn('ops');
    const id = await failedItem('console-requeue');
    const button = page.getByRole('button', { name: `Requeue ${id}` }).first();
    await button.waitFor({ timeout: SHOWS_WITHIN_MS });
    await button.focus();
    await page.keyboard.press('Enter');
    await page.locator('#notice', { hasText: `Requeued ${id}` }).waitFor();
    await page
      .locator(`#transitions tr[data-item-id="${id}"][data-version="4"]`, { hasText: 'FAILED → PENDING' })
      .waitFor({ timeout: SHOWS_WITHIN_MS });
    const now = await app.gql(
      `query ($id: ID!) { workItem(id: $id) { status version } }`,
      { id },
      { key: 'dashboard' },
    );
    expect(now.data.workItem).toEqual({ status: 'PENDING', version: 4 });
    await closePage(page);
  });

  it('shows a dashboard key no requeue button, and the server refuses its requeue anyway', async () => {
    const id = await failedItem('console-dashboard');
    const page = await signIn('dashboard');
    await row(page, 'failed', id).waitFor();
    expect(await page.locator('button.requeue').count()).toBe(0);
    // The notice is written after the role check, which may land after the queue's first rows.
    await page.locator('#connection', { hasText: 'need a key that may subscribe' }).waitFor();
    const refused = await app.gql(
      `mutation { requeueWorkItem(input: { id: "${id}", version: 3 }) { __typename } }`,
      {},
      { key: 'dashboard' },
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    await closePage(page);
  });

  it('resumes a dropped socket from its last cursor: every row once, none lost, with a visible notice', async () => {
    const page = await browser.newPage();
    openPages.add(page);
    // The drop is the network's, from outside the page: the page has no hook for it.
    const sockets = await droppableSockets(page);
    await signInOn(page, 'ops');
    const first = await createItem(app, 'console-drop', 'console-drop-0');
    await row(page, 'transitions', first).waitFor({ timeout: SHOWS_WITHIN_MS });
    const attached = app.services.liveFeeds.workItems.subscriberCount;
    sockets.drop({ hold: true });
    await page.locator('#connection[data-status="disconnected"]').waitFor();
    await waitFor(() => app.services.liveFeeds.workItems.subscriberCount < attached, 'the server to see the socket go');
    const missed = await Promise.all([1, 2, 3].map((i) => createItem(app, 'console-drop', `console-drop-${i}`)));
    sockets.resume();
    await page.locator('#connection', { hasText: 'reconnected' }).waitFor();
    for (const id of missed) await row(page, 'transitions', id).waitFor();
    const later = await createItem(app, 'console-drop', 'console-drop-4');
    await row(page, 'transitions', later).waitFor({ timeout: SHOWS_WITHIN_MS });
    for (const id of [first, ...missed, later]) expect(await row(page, 'transitions', id).count(), id).toBe(1);
    await closePage(page);
  });

  it('keeps the live list capped under a burst of transitions', { timeout: 90_000 }, async () => {
    const page = await signIn('ops');
    const ids = await Promise.all(
      Array.from({ length: 240 }, (_, i) => createItem(app, 'console-burst', `console-burst-${i}`)),
    );
    await waitFor(
      async () => (await page.locator('#transitions tbody tr', { hasText: 'console-burst' }).count()) >= 200,
      'the burst to show',
      60_000,
    );
    expect(await page.locator('#transitions tbody tr').count()).toBe(200);
    expect(ids).toHaveLength(240);
    await closePage(page);
  });
});
