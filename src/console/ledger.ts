// The ledger panels: the newest journal entries of all accounts (live, or polled for a key that
// may not follow them), and one account: its balance, held and available amounts and status
// (followed live), its statement with reference and reversal columns, and its balance at a time.
import type { Event, Result } from '@precondition/sdk';
import { $, cell, errorText, labelled, showNotice, tbody, time } from './dom.ts';
import { money } from './money.ts';
import { follow, type Session } from './session.ts';

/** Rows of the recent entries table, and of a statement. */
const ENTRIES_SHOWN_MAX = 20;
/** Entry kinds that take money out of their account: shown with a minus sign on a statement. */
const DEBIT_KINDS = new Set(['withdrawal', 'transferOut', 'depositReversal']);

type Account = NonNullable<Result<'account'>>;
type Entry = Result<'ledgerEntries'>['items'][number];
interface EntryRow {
  accountId: string;
  kind: string;
  amount: number;
  currency: string;
  balanceAfter: number;
  createdAt: string;
}

export interface LedgerPanel {
  onEntryEvent(event: Event<'ledgerEntryAdded'>): void;
  refreshEntries(): Promise<void>;
  lookUpAccount(id: string): Promise<void>;
  showBalanceAt(): Promise<void>;
}

function entryRow(entry: EntryRow): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.append(
    cell(entry.accountId),
    cell(entry.kind),
    cell(money(entry.amount, entry.currency), 'num'),
    cell(money(entry.balanceAfter, entry.currency), 'num'),
    cell(time(entry.createdAt), 'time'),
  );
  return labelled('entries', row);
}

/** The statement's reversal column: what a reversal reverses, or how much of a move was reversed. */
function reversalText(entry: Entry): string {
  if (entry.reversalOf) return `reverses ${entry.reversalOf}`;
  return entry.reversedAmount > 0 ? `${money(entry.reversedAmount, entry.currency)} reversed` : '';
}

function statementRow(entry: Entry): HTMLTableRowElement {
  const row = document.createElement('tr');
  const signed = DEBIT_KINDS.has(entry.kind) ? `-${entry.amount}` : entry.amount;
  row.append(
    cell(entry.kind),
    cell(money(signed, entry.currency), 'num'),
    cell(money(entry.balanceAfter, entry.currency), 'num'),
    cell(entry.counterpartyAccountId ?? ''),
    cell(entry.reference ?? ''),
    cell(reversalText(entry)),
    cell(time(entry.createdAt), 'time'),
  );
  return labelled('statement', row);
}

export function createLedgerPanel(session: Session): LedgerPanel {
  let account: Account | null = null;
  /** Stops the open account's live feeds. */
  const stopFollowing: Array<() => void> = [];

  function showAccount(): void {
    // available = balance - held: what withdrawals, transfers and new holds may still spend.
    const held = account?.held ?? 0;
    const closed =
      account?.status === 'CLOSED' && account.closedAt
        ? `, CLOSED since ${new Date(account.closedAt).toLocaleString()}`
        : '';
    $('account').textContent = account
      ? `${account.id}: ${money(account.balance, account.currency)} (version ${account.version}), held ${money(held, account.currency)}, available ${money(account.balance - held, account.currency)}${closed}`
      : 'No such account';
    $('balance-at-form').hidden = !account;
    $('balance-at-result').textContent = '';
  }

  /** The account's statement: its last entries on the accountId index, newest first, signed by direction. */
  async function refreshStatement(id: string): Promise<void> {
    const page = await session.client.ledgerEntries({ accountId: id, first: ENTRIES_SHOWN_MAX });
    tbody('statement').replaceChildren(...page.items.map(statementRow));
    $('statement-box').hidden = page.items.length === 0;
  }

  function followAccount(id: string): void {
    if (session.mayOpen('holdChanged')) {
      // A hold changes `held` without a balance event: read it again on each hold transition.
      stopFollowing.push(
        follow(session.client.subscribe.holdChanged({ accountId: id }), async () => {
          const now = await session.client.account(id);
          if (account?.id === id && now) {
            account = { ...account, held: now.held };
            showAccount();
          }
        }),
      );
    }
    if (!session.mayOpen('accountBalanceChanged')) return;
    stopFollowing.push(
      follow(session.client.subscribe.accountBalanceChanged({ accountIds: [id] }), (event) => {
        if (event.__typename === 'ResyncRequired')
          return void lookUpAccount(id).catch((error: unknown) => showNotice(errorText(error)));
        if (event.__typename !== 'AccountBalanceChanged') return;
        if (account?.id === event.accountId && event.version > account.version) {
          account = { ...account, balance: event.balance, version: event.version };
          showAccount();
          refreshStatement(event.accountId).catch((error: unknown) =>
            showNotice(`Could not refresh the statement: ${errorText(error)}`, 'poll'),
          );
        }
      }),
    );
  }

  async function refreshEntries(): Promise<void> {
    const page = await session.client.ledgerEntries({ first: ENTRIES_SHOWN_MAX });
    tbody('entries').replaceChildren(...page.items.map(entryRow));
  }

  async function lookUpAccount(id: string): Promise<void> {
    for (const stop of stopFollowing.splice(0)) stop();
    account = await session.client.account(id);
    showAccount();
    if (!account) {
      $('statement-box').hidden = true;
      return;
    }
    await refreshStatement(id);
    followAccount(id);
  }

  return {
    onEntryEvent(event) {
      if (event.__typename === 'ResyncRequired') {
        showNotice(`Resync (${event.reason}): recent entries were re-read.`);
        return void refreshEntries().catch((error: unknown) =>
          showNotice(`Could not refresh: ${errorText(error)}`, 'poll'),
        );
      }
      if (event.__typename !== 'LedgerEntryAdded') return;
      const body = tbody('entries');
      body.prepend(entryRow(event));
      while (body.rows.length > ENTRIES_SHOWN_MAX) body.deleteRow(body.rows.length - 1);
    },
    refreshEntries,
    lookUpAccount,
    /** The balance as of the picked time (the picker's local time), from the journal. */
    async showBalanceAt() {
      const input = $<HTMLInputElement>('balance-at');
      if (!account || !input.value) return;
      const at = new Date(input.value);
      const balance = await session.client.balanceAt({ accountId: account.id, at: at.toISOString() });
      $('balance-at-result').textContent =
        `Balance at ${at.toLocaleString()}: ${money(balance ?? 0, account.currency)}`;
    },
  };
}
