// Opaque page cursors: base64url of "<kind>:<position>". The kind stops a cursor of one list
// from being fed to another.

export type CursorKind = 'account' | 'entry';

export function encodeCursor(kind: CursorKind, position: string | number): string {
  return Buffer.from(`${kind}:${position}`, 'utf8').toString('base64url');
}

/** The position inside a cursor of `kind`, or null if the string is not such a cursor. */
export function decodeCursor(kind: CursorKind, cursor: string): string | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const prefix = `${kind}:`;
  return text.startsWith(prefix) && text.length > prefix.length ? text.slice(prefix.length) : null;
}
