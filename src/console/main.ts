// The ops console: signs in with an API key, then shows the queue, the payout projection, moves
// and live feeds (polled), live work-item transitions and ledger entries (subscriptions, for a
// key that may open them), failed items with Requeue, schedules and an account's statement. It
// speaks to the API only through the SDK (session.ts); it loads nothing from elsewhere.
import type { ConnectionEvent, PreconditionClient } from '@precondition/sdk';
import { $, clearNotice, errorText, showNotice } from './dom.ts';
import { createLedgerPanel } from './ledger.ts';
import { refreshEvery, refreshPeriodMs, refreshPeriodText } from './refresh.ts';
import { refreshSchedules } from './schedules.ts';
import { keepScrollBoxesFitted } from './scrollBoxes.ts';
import { createPageClient, follow, sessionOf, type Session } from './session.ts';
import { createStatsPanel } from './stats.ts';
import { TRANSITIONS_MAX, WorkItemsPanel } from './workItems.ts';

const KEY_STORAGE = 'precondition.apiKey';
/** How often the polled panels refresh: 3 s, or `?refresh=<seconds>` in the page's address (refresh.ts). */
const REFRESH_PERIOD_MS = refreshPeriodMs(location.search);
/** graphql-ws close codes for a key refused on the socket: reconnecting cannot help. */
const REFUSED_CLOSE_CODES = new Set([4401, 4403]);

/** The connection line: whether live updates flow, and which. */
function connectionReporter(): { feeds: string[]; polledLedger: boolean; report(event: ConnectionEvent): void } {
  let everConnected = false;
  const line = {
    feeds: [] as string[],
    polledLedger: false,
    report(event: ConnectionEvent) {
      const connection = $('connection');
      let status: string;
      let text: string;
      if (event.state === 'connected') {
        status = 'connected';
        text = everConnected ? 'reconnected; resumed after the last event shown' : 'live';
        everConnected = true;
        clearNotice('connection', 'poll');
      } else if (event.code !== null && REFUSED_CLOSE_CODES.has(event.code)) {
        status = 'refused';
        text = `live updates refused (${event.code})`;
      } else {
        status = 'disconnected';
        text = 'connection lost; reconnecting…';
      }
      connection.dataset['status'] = status;
      const polled = status === 'connected' && line.polledLedger ? '; ledger entries refresh every few seconds' : '';
      connection.textContent = `Live updates (${line.feeds.join(', ')}): ${text}${polled}`;
    },
  };
  return line;
}

async function signIn(key: string): Promise<void> {
  const connection = connectionReporter();
  let client: PreconditionClient;
  let session: Session;
  try {
    client = createPageClient(key, (event) => connection.report(event));
    session = sessionOf(client, await client.viewer());
  } catch (error) {
    sessionStorage.removeItem(KEY_STORAGE);
    $('sign-in-error').textContent = `That key was refused: ${errorText(error)}`;
    return;
  }
  sessionStorage.setItem(KEY_STORAGE, key);
  $('sign-in').hidden = true;
  $('console').hidden = false;
  $('sign-out').hidden = false;
  $('who').textContent = `Signed in as ${session.viewer.role}`;
  $('transitions-max').textContent = String(TRANSITIONS_MAX);
  await openPanels(session, connection);
}

async function openPanels(session: Session, connection: ReturnType<typeof connectionReporter>): Promise<void> {
  $('refresh-period').textContent =
    `Queue, charts and schedules refresh every ${refreshPeriodText(REFRESH_PERIOD_MS)}.`;
  const stats = createStatsPanel(session);
  const workItems = new WorkItemsPanel(session, () => stats.refresh());
  const ledger = createLedgerPanel(session);
  wireAccountForms(ledger);
  const poll = [() => stats.refresh(), () => refreshSchedules(session)];
  // Only the feeds this key may open: a worker follows work items live and polls the ledger.
  if (session.mayOpen('workItemStatusChanged')) {
    connection.feeds.push('work items');
    follow(session.client.subscribe.workItemStatusChanged({}), (event) => workItems.onEvent(event));
  } else {
    poll.push(() => workItems.refreshFailed());
  }
  if (session.mayOpen('ledgerEntryAdded')) {
    connection.feeds.push('ledger entries');
    follow(session.client.subscribe.ledgerEntryAdded({}), (event) => ledger.onEntryEvent(event));
  } else {
    connection.polledLedger = true;
    poll.push(() => ledger.refreshEntries());
  }
  if (connection.feeds.length === 0)
    $('connection').textContent = 'Live updates need a key that may subscribe; this page refreshes every few seconds.';
  await Promise.all([
    stats.refresh(),
    refreshSchedules(session),
    workItems.refreshFailed(),
    ledger.refreshEntries(),
    workItems.loadRecentTransitions(),
  ]).catch((error: unknown) => showNotice(`Could not load: ${errorText(error)}`, 'poll'));
  const refreshAll = () =>
    Promise.all(poll.map((refresh) => refresh())).then(
      () => clearNotice('poll'),
      (error: unknown) => showNotice(`Could not refresh: ${errorText(error)}`, 'poll'),
    );
  refreshEvery(REFRESH_PERIOD_MS, refreshAll);
}

function wireAccountForms(ledger: ReturnType<typeof createLedgerPanel>): void {
  $('account-lookup').addEventListener('submit', (event) => {
    event.preventDefault();
    ledger
      .lookUpAccount($<HTMLInputElement>('account-id').value.trim())
      .catch((error: unknown) => showNotice(errorText(error)));
  });
  $('balance-at-form').addEventListener('submit', (event) => {
    event.preventDefault();
    ledger.showBalanceAt().catch((error: unknown) => showNotice(errorText(error)));
  });
}

keepScrollBoxesFitted($('console'));
$('sign-in').addEventListener('submit', (event) => {
  event.preventDefault();
  void signIn($<HTMLInputElement>('api-key').value.trim());
});
$('sign-out').addEventListener('click', () => {
  sessionStorage.removeItem(KEY_STORAGE);
  location.reload();
});
const saved = sessionStorage.getItem(KEY_STORAGE);
if (saved) void signIn(saved);
else $('api-key').focus();
