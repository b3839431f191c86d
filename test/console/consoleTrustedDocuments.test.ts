// @module-tag processes
// The ops console works for an `ops` key under TRUSTED_DOCUMENTS=enforce, in a real browser
// (Debian's chromium driven by playwright-core): every query, mutation and subscription the page
// sends is one of the SDK's generated operations, so the server, which refuses any other document
// from a non-admin key, runs them all. It proves it by using each panel (live transitions, failed
// items and Requeue, the item page, an account with its statement and balance-at, the charts'
// polls, schedules) and by the server's count of refused documents, which stays at the one ad-hoc
// probe this test sends itself to show that enforcement is on.
import type { Counter } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../packages/sdk/src/index.ts';
import { consoleAddress, type ConsoleBrowser, launchConsoleBrowser, TEST_REFRESH_SECONDS } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/waiting.ts';

describe('ops console under TRUSTED_DOCUMENTS=enforce', () => {
  let app: TestApp;
  let browser: ConsoleBrowser;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0', TRUSTED_DOCUMENTS: 'enforce' } });
    browser = await launchConsoleBrowser(app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** Documents the server refused as untrusted, over the whole run. */
  async function refusedDocuments(): Promise<number> {
    const { values } = await (app.registry.getSingleMetric('graphql_untrusted_documents_total') as Counter).get();
    return values.filter(({ labels }) => labels['allowed'] === 'false').reduce((sum, { value }) => sum + value, 0);
  }

  it("serves an ops key every panel with the SDK's documents only", { timeout: 90_000 }, async () => {
    // Enforcement is on: a document of the test's own, from the ops key, is refused.
    const probe = await app.gql('{ viewer { role } }', {}, { key: 'ops' });
    expect(probe.errors?.[0]?.extensions?.code).toBe('UNTRUSTED_DOCUMENT');
    expect(await refusedDocuments()).toBe(1);

    // The data, made through the SDK as services and workers make it (trusted documents too).
    const service = createClient({ url: app.url, apiKey: app.keys.service });
    const worker = createClient({ url: app.url, apiKey: app.keys.worker });
    expect((await service.openAccount({ accountId: 'td-acct', currency: 'EUR' })).__typename).toBe(
      'OpenAccountSuccess',
    );
    expect((await service.deposit({ accountId: 'td-acct', amount: 1_250, reference: 'td-ref' })).__typename).toBe(
      'DepositSuccess',
    );
    const created = await service.createWorkItem({ kind: 'td-console', maxAttempts: 1 });
    if (created.__typename !== 'CreateWorkItemSuccess')
      throw new Error(`createWorkItem answered ${created.__typename}`);
    const id = created.item.id;
    const claimed = await worker.claimWorkItem({ id, workerId: 'td-worker' });
    if (claimed.__typename !== 'ClaimSuccess') throw new Error(`claimWorkItem answered ${claimed.__typename}`);
    const failed = await worker.completeWorkItem({
      id,
      workerId: 'td-worker',
      version: claimed.item.version,
      outcome: 'FAILED',
    });
    expect(failed.__typename).toBe('CompleteSuccess');

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      // Polled every TEST_REFRESH_SECONDS: the moves chart's first point needs a second poll.
      await page.goto(consoleAddress(app.url, { refreshSeconds: TEST_REFRESH_SECONDS }));
      await page.getByLabel('API key').fill(app.keys.ops);
      await page.keyboard.press('Enter');
      await page.locator('#who', { hasText: 'Signed in as ops' }).waitFor();
      await page.locator('#connection', { hasText: 'Live updates (work items, ledger entries): live' }).waitFor();
      // Read on open (recentWorkItems, workItems) and polled (workQueueStats, moveOutcomes, liveFeeds, ...).
      await page.locator(`#failed tr[data-item-id="${id}"]`).waitFor();
      await page.locator(`#transitions tr[data-item-id="${id}"]`, { hasText: 'PROCESSING → FAILED' }).waitFor();
      await page.locator('#entries tr', { hasText: 'td-acct' }).first().waitFor();
      await page.waitForFunction(`Number(document.getElementById('moves-chart').dataset.points) >= 1`, undefined, {
        timeout: 20_000,
      });
      // The item page, then Requeue (a mutation), whose transition comes back live (a subscription).
      await page
        .getByRole('button', { name: `Open item ${id}` })
        .first()
        .click();
      await page.locator('#item dd[data-term="Status"]', { hasText: 'FAILED' }).waitFor();
      await page
        .getByRole('button', { name: `Requeue ${id}` })
        .first()
        .click();
      await page.locator('#notice', { hasText: `Requeued ${id}` }).waitFor();
      await page.locator(`#transitions tr[data-item-id="${id}"]`, { hasText: 'FAILED → PENDING' }).waitFor();
      // An account: its line, its statement, its balance live and at a time.
      await page.getByLabel('Account id').fill('td-acct');
      await page.keyboard.press('Enter');
      await page.locator('#account', { hasText: 'td-acct: €12.50 (version 1)' }).waitFor();
      await page.locator('#statement tbody tr', { hasText: 'td-ref' }).waitFor();
      expect((await service.deposit({ accountId: 'td-acct', amount: 750 })).__typename).toBe('DepositSuccess');
      await page.locator('#account', { hasText: 'td-acct: €20.00 (version 2)' }).waitFor();
      await page.getByLabel('Balance at').fill(new Date(Date.now() + 60_000).toISOString().slice(0, 19));
      await page.getByRole('button', { name: 'Show' }).click();
      await page.locator('#balance-at-result', { hasText: 'Balance at' }).waitFor();
      await waitFor(async () => (await page.locator('#queue tbody tr').count()) > 0, 'the queue to show');

      expect(await refusedDocuments()).toBe(1);
      // The last notice is still the requeue's: nothing failed or was refused since.
      expect(await page.locator('#notice').innerText()).toBe(`Requeued ${id}`);
    } finally {
      await page.close();
    }
  });
});
