// Page cursors of the ledger's lists: "<kind>:<position>" in the app's one cursor codec
// (src/lib/cursor.ts). The kind stops a cursor of one list from being fed to another.
import { decodeCursor as decodeText, encodeCursor as encodeText } from '../lib/cursor.ts';

export type CursorKind = 'account' | 'entry' | 'hold' | 'balance';

export function encodeCursor(kind: CursorKind, position: string | number): string {
  return encodeText(`${kind}:${position}`);
}

/** The position inside a cursor of `kind`, or null if the string is not such a cursor. */
export function decodeCursor(kind: CursorKind, cursor: string): string | null {
  const text = decodeText(cursor);
  const prefix = `${kind}:`;
  return text.startsWith(prefix) && text.length > prefix.length ? text.slice(prefix.length) : null;
}
