// The one codec of every opaque string this API hands a client and takes back: page cursors,
// subscription resume cursors and consistency tokens are base64url of UTF-8 text (or of JSON).
// Opaque so that clients pass them back as they are; decoding never throws, so a string the
// client made up is refused by its caller's input schema (BAD_USER_INPUT), never a fault.

export function encodeCursor(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** The text inside a cursor. Any string decodes to some text; the caller checks that it is one of its own. */
export function decodeCursor(cursor: string): string {
  return Buffer.from(cursor, 'base64url').toString('utf8');
}

export function encodeJsonCursor(value: unknown): string {
  return encodeCursor(JSON.stringify(value));
}

/** The JSON value inside a cursor, or undefined when the text is not JSON. */
export function decodeJsonCursor(cursor: string): unknown {
  try {
    return JSON.parse(decodeCursor(cursor)) as unknown;
  } catch {
    return undefined;
  }
}
