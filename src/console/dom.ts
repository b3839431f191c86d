// Small DOM helpers the console's panels share: finding an element the page must have, table
// cells, times, and the one notice line.

/** The element with this id; the page (index.html) has every id the console names. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`invariant: index.html has no #${id}`);
  return element as T;
}

/** A table's body, which its panel rewrites. */
export function tbody(tableId: string): HTMLTableSectionElement {
  const body = $<HTMLTableElement>(tableId).tBodies[0];
  if (!body) throw new Error(`invariant: #${tableId} has no tbody`);
  return body;
}

export function cell(text: string, className?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

export function time(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleTimeString() : '';
}

/** A clock time from milliseconds since the epoch (a chart's time axis and tooltip). */
export function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString();
}

/** Each cell carries its column's header as `data-label`, which the narrow layout shows beside it. */
export function labelled(tableId: string, row: HTMLTableRowElement): HTMLTableRowElement {
  const headers = $<HTMLTableElement>(tableId).tHead?.rows[0]?.cells;
  [...row.cells].forEach((td, i) => (td.dataset['label'] = headers?.[i]?.textContent ?? ''));
  return row;
}

/**
 * What a notice is about: a notice about the connection or a failed refresh ("Failed to fetch")
 * is cleared once the connection is back or a refresh succeeds, so a stale one never sits beside
 * "reconnected".
 */
export type NoticeKind = 'info' | 'connection' | 'poll';

/** One notice at a time. */
export function showNotice(text: string, kind: NoticeKind = 'info'): void {
  const notice = $('notice');
  notice.textContent = text;
  notice.dataset['kind'] = kind;
  notice.hidden = false;
}

export function clearNotice(...kinds: NoticeKind[]): void {
  const notice = $('notice');
  if (!notice.hidden && kinds.includes(notice.dataset['kind'] as NoticeKind)) {
    notice.hidden = true;
    notice.textContent = '';
  }
}

/** An error's message for a notice (the SDK's errors say their code and cause). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
