// @module-tag processes
// The console's life-cycle views, in a real browser (Debian's chromium, headless, offline): an
// account's status, its statement's reference and reversal columns (what a reversal reverses, how
// much of a move was reversed), and the balance-at picker on the statement, which reads the
// balance as of the picked time from the journal (balanceAt).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleAddress, type ConsoleBrowser, launchConsoleBrowser } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { openAccount } from '../support/callers.ts';

describe('ops console: the life cycle', () => {
  let app: TestApp;
  let browser: ConsoleBrowser;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0' } });
    browser = await launchConsoleBrowser(app.url, { timezoneId: 'UTC' });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const mutate = async (query: string) => {
    const body = await app.gql(query, {}, { key: 'service' });
    expect(body.errors).toBeUndefined();
    return body.data;
  };

  it('shows a closed account, its reversals and references, and its balance at a picked time', async () => {
    await openAccount(app, 'cl-a');
    await openAccount(app, 'cl-b');
    await mutate(
      'mutation { deposit(input: { accountId: "cl-a", amount: 1000, requestId: "cl-dep", reference: "bank-77" }) { __typename } }',
    );
    const history = await app.gql(
      'query { balanceHistory(accountId: "cl-a") { items { at balance } } }',
      {},
      { key: 'dashboard' },
    );
    // The picker has whole seconds: the next whole second after the deposit committed, and the
    // reversal only once the clock is past it (the database's clock is this machine's here).
    const afterDeposit = new Date(Math.ceil((Date.parse(history.data.balanceHistory.items[0].at) + 1) / 1_000) * 1_000);
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(afterDeposit.getTime() + 50), {
      timeout: 5_000,
      interval: 50,
    });
    await mutate(
      'mutation { reverseMove(input: { requestId: "cl-rev", originalRequestId: "cl-dep", amount: 250 }) { __typename } }',
    );
    await mutate(
      'mutation { closeAccount(input: { requestId: "cl-close", accountId: "cl-a", transferBalanceTo: "cl-b" }) { __typename } }',
    );

    const page = await browser.newPage();
    try {
      await page.goto(consoleAddress(app.url));
      await page.getByLabel('API key').fill(app.keys.dashboard);
      await page.keyboard.press('Enter');
      await page.locator('#who', { hasText: 'Signed in as dashboard' }).waitFor();
      await page.getByLabel('Account id').fill('cl-a');
      await page.keyboard.press('Enter');
      await page.locator('#account', { hasText: 'cl-a: €0.00' }).waitFor();
      expect(await page.locator('#account').innerText()).toContain('CLOSED since');
      const rows = await page.locator('#statement tbody tr').allInnerTexts();
      expect(rows).toHaveLength(3);
      expect(rows[0]).toContain('transferOut'); // the close
      expect(rows[1]).toMatch(/depositReversal[\s\S]*-€2\.50[\s\S]*reverses cl-dep/);
      expect(rows[2]).toMatch(/deposit[\s\S]*bank-77[\s\S]*€2\.50 reversed/);

      // The picker takes local time (the page runs in UTC here): after the deposit, before the reversal.
      await page.getByLabel('Balance at').fill(afterDeposit.toISOString().slice(0, 19));
      await page.getByRole('button', { name: 'Show' }).click();
      await page.locator('#balance-at-result', { hasText: 'Balance at' }).waitFor();
      expect(await page.locator('#balance-at-result').innerText()).toMatch(/: €10\.00$/);
    } finally {
      await page.close();
    }
  });
});
