import { z } from 'zod';
import { decodeJsonCursor, encodeJsonCursor } from '../lib/cursor.ts';

// A subscription cursor is a change event's resume token as an opaque string (its JSON in the
// app's one cursor codec, src/lib/cursor.ts). Tokens are deployment-wide, so a cursor from one API process resumes on any other.

export interface ResumeToken {
  _data: string;
}

const resumeToken = z.object({ _data: z.string().regex(/^[0-9A-Fa-f]{2,4096}$/) }).strict();

export function encodeResumeCursor(token: ResumeToken): string {
  return encodeJsonCursor({ _data: token._data });
}

/** The token inside a cursor, or null when the string is not one of ours. */
export function decodeResumeCursor(cursor: string): ResumeToken | null {
  const parsed = resumeToken.safeParse(decodeJsonCursor(cursor));
  return parsed.success ? parsed.data : null;
}

/** Reads a token the driver handed back (`change._id`, `stream.resumeToken`). */
export function asResumeToken(value: unknown): ResumeToken {
  const parsed = resumeToken.safeParse(value);
  if (!parsed.success) throw new Error(`unexpected resume token shape: ${JSON.stringify(value)}`);
  return parsed.data;
}
