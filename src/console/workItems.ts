// The work-item panels: live transitions (the last ones on open, then each as it happens), the
// failed items with Requeue, and a work item's page (its facts and its transitions).
import type { Event, Result } from '@precondition/sdk';
import { $, cell, errorText, labelled, showNotice, tbody, time } from './dom.ts';
import type { Session } from './session.ts';

/** Rows kept in the live transitions table; older ones fall off so the page stays fast. */
export const TRANSITIONS_MAX = 200;
/** Failed items listed (the newest dead letters; the queue table counts them all). */
const FAILED_SHOWN_MAX = 50;
/** Recently changed items read on open, and the transitions kept of each. */
const RECENT_ITEMS_MAX = 50;
const RECENT_TRANSITIONS_PER_ITEM = 3;
/** Characters of an id shown: an ObjectId's first 8 digits are its second, its last ones differ. */
const ID_SHOWN_CHARS = 10;
/** Events arrive faster than a screen refreshes; rows are added in one batch per frame. */
const FLUSH_DELAY_MS = 16;
/** A burst of FAILED transitions re-reads the failed list once. */
const FAILED_REFRESH_DELAY_MS = 100;

type WorkItemEvent = Event<'workItemStatusChanged'>;
type WorkItem = NonNullable<Result<'workItem'>>;
interface Transition {
  itemId: string;
  kind: string;
  previousStatus: string | null;
  status: string;
  version: number;
  at: string;
}

/** The transitions table, the failed list and the Requeue and Open buttons in them. */
export class WorkItemsPanel {
  readonly #pending: Transition[] = [];
  #flushScheduled = false;
  #failedRefresh: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly session: Session,
    private readonly refreshStats: () => Promise<void>,
  ) {}

  onEvent(event: WorkItemEvent): void {
    if (event.__typename === 'ResyncRequired') {
      showNotice(
        `Resync (${event.reason}): some transitions may be missing above; the queue and failed items were re-read.`,
      );
      void this.refreshStats().catch((error: unknown) => showNotice(`Could not refresh: ${errorText(error)}`, 'poll'));
      this.#scheduleFailedRefresh();
      return;
    }
    if (event.__typename !== 'WorkItemStatusChanged') return;
    this.#addTransition(event);
    if (event.status === 'FAILED' || event.previousStatus === 'FAILED') this.#scheduleFailedRefresh();
  }

  async refreshFailed(): Promise<void> {
    const page = await this.session.client.workItems({ status: 'FAILED', first: FAILED_SHOWN_MAX });
    tbody('failed').replaceChildren(
      ...page.items.map((item) => {
        const row = document.createElement('tr');
        row.dataset['itemId'] = item.id;
        row.append(
          this.#idCell(item.id),
          cell(item.kind, 'kind'),
          cell(String(item.attempts), 'num'),
          this.#requeueButton(item.id, item.version),
        );
        return labelled('failed', row);
      }),
    );
  }

  /** The transitions of the items changed last, so the table does not start empty. */
  async loadRecentTransitions(): Promise<void> {
    const items = await this.session.client.recentWorkItems({ first: RECENT_ITEMS_MAX });
    const events = items
      .flatMap((item) =>
        item.history
          .slice(-RECENT_TRANSITIONS_PER_ITEM)
          .map(
            (h): Transition => ({
              itemId: item.id,
              kind: item.kind,
              previousStatus: h.from,
              status: h.to,
              version: h.version,
              at: h.at,
            }),
          ),
      )
      .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.version - a.version))
      .slice(0, TRANSITIONS_MAX);
    const body = tbody('transitions');
    const shown = new Set([...body.rows].map((row) => `${row.dataset['itemId']}:${row.dataset['version']}`));
    body.append(
      ...events
        .filter((event) => !shown.has(`${event.itemId}:${event.version}`))
        .map((event) => this.#transitionRow(event)),
    );
  }

  #idCell(id: string): HTMLTableCellElement {
    const td = document.createElement('td');
    td.className = 'id';
    const code = document.createElement('code');
    code.textContent = id.length > ID_SHOWN_CHARS ? `…${id.slice(-ID_SHOWN_CHARS)}` : id;
    code.title = id;
    const copy = smallButton('Copy', `Copy id ${id}`, async () => {
      try {
        await navigator.clipboard.writeText(id);
        showNotice(`Copied ${id}`);
      } catch {
        // No clipboard (an insecure origin): show it whole, selectable.
        showNotice(`Item id: ${id}`);
      }
    });
    const open = smallButton('Open', `Open item ${id}`, () =>
      openItem(this.session, id).catch((error: unknown) => showNotice(`Could not open ${id}: ${errorText(error)}`)),
    );
    td.append(code, copy, open);
    return td;
  }

  #requeueButton(itemId: string, version: number): HTMLTableCellElement {
    if (!this.session.viewer.mayRequeue) return cell('');
    const td = document.createElement('td');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'requeue';
    button.textContent = 'Requeue';
    button.setAttribute('aria-label', `Requeue ${itemId}`);
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const result = await this.session.client.requeueWorkItem({ id: itemId, version });
        showNotice(
          result.__typename === 'RequeueSuccess'
            ? `Requeued ${itemId}`
            : `Not requeued (${result.__typename}): the item changed meanwhile`,
        );
        this.#scheduleFailedRefresh();
      } catch (error) {
        showNotice(`Requeue failed: ${errorText(error)}`);
        button.disabled = false;
      }
    });
    td.append(button);
    return td;
  }

  #transitionRow(event: Transition): HTMLTableRowElement {
    const row = document.createElement('tr');
    row.dataset['itemId'] = event.itemId;
    row.dataset['version'] = String(event.version);
    row.append(
      this.#idCell(event.itemId),
      cell(event.kind, 'kind'),
      cell(`${event.previousStatus ?? '∅'} → ${event.status}`, `status status-${event.status}`),
      cell(String(event.version), 'num'),
      cell(time(event.at), 'time'),
      event.status === 'FAILED' ? this.#requeueButton(event.itemId, event.version) : cell(''),
    );
    return labelled('transitions', row);
  }

  #flushTransitions(): void {
    this.#flushScheduled = false;
    const body = tbody('transitions');
    const fragment = document.createDocumentFragment();
    for (const event of this.#pending.splice(0).reverse()) {
      // A live event for a transition already shown (loaded on open) is not shown twice.
      if (body.querySelector(`tr[data-item-id="${CSS.escape(event.itemId)}"][data-version="${event.version}"]`))
        continue;
      fragment.append(this.#transitionRow(event));
    }
    body.prepend(fragment);
    while (body.rows.length > TRANSITIONS_MAX) body.deleteRow(body.rows.length - 1);
  }

  #addTransition(event: Transition): void {
    this.#pending.push(event);
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setTimeout(() => this.#flushTransitions(), FLUSH_DELAY_MS);
  }

  #scheduleFailedRefresh(): void {
    clearTimeout(this.#failedRefresh);
    this.#failedRefresh = setTimeout(
      () =>
        void this.refreshFailed().catch((error: unknown) =>
          showNotice(`Could not refresh: ${errorText(error)}`, 'poll'),
        ),
      FAILED_REFRESH_DELAY_MS,
    );
  }
}

function smallButton(text: string, label: string, onClick: () => unknown): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = text;
  button.setAttribute('aria-label', label);
  button.addEventListener('click', () => void onClick());
  return button;
}

// A work item's page: what it is, its attempts, the withdrawal entry a payout pays out, the trace
// id of the request that made it (search it in the trace backend), and its transitions.
async function openItem(session: Session, id: string): Promise<void> {
  const item = await session.client.workItem(id);
  if (!item) return showNotice(`No work item ${id}`);
  $('item').replaceChildren(
    ...itemFacts(item).flatMap(([term, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = value;
      dd.dataset['term'] = term;
      return [dt, dd];
    }),
  );
  tbody('item-history').replaceChildren(
    ...item.history.map((step) => {
      const row = document.createElement('tr');
      row.append(
        cell(step.from ?? '∅', `status status-${step.from}`),
        cell(step.to, `status status-${step.to}`),
        cell(String(step.version), 'num'),
        cell(step.workerId ?? ''),
        cell(time(step.at), 'time'),
      );
      return labelled('item-history', row);
    }),
  );
  $('item-section').hidden = false;
  $('item-section').scrollIntoView({ block: 'nearest' });
}

function itemFacts(item: WorkItem): Array<[string, string]> {
  const payload = item.payload as { entryId?: unknown } | null;
  const entryId = item.kind === 'PAYOUT' && typeof payload?.entryId === 'string' ? payload.entryId : null;
  return [
    ['Id', item.id],
    ['Kind', item.kind],
    ['Status', `${item.status} (version ${item.version})`],
    ['Attempts', `${item.attempts} of ${item.maxAttempts}`],
    ['Held by', item.lockedBy ? `${item.lockedBy} until ${time(item.leaseExpiresAt)}` : 'nobody'],
    ['Key', item.idempotencyKey],
    ...(entryId ? [['Pays out entry', entryId] as [string, string]] : []),
    ['Trace id', item.traceparent ? (item.traceparent.split('-')[1] ?? item.traceparent) : 'not traced'],
    ['Payload', JSON.stringify(item.payload)],
    ['Result', JSON.stringify(item.result)],
  ];
}
