import { z } from 'zod';

// A subscription cursor is a change event's resume token as an opaque string (base64url of its
// JSON). Tokens are deployment-wide, so a cursor from one API process resumes on any other.

export interface ResumeToken {
  _data: string;
}

const resumeToken = z.object({ _data: z.string().regex(/^[0-9A-Fa-f]{2,4096}$/) }).strict();

export function encodeResumeCursor(token: ResumeToken): string {
  return Buffer.from(JSON.stringify({ _data: token._data }), 'utf8').toString('base64url');
}

/** The token inside a cursor, or null when the string is not one of ours. */
export function decodeResumeCursor(cursor: string): ResumeToken | null {
  try {
    const parsed = resumeToken.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Reads a token the driver handed back (`change._id`, `stream.resumeToken`). */
export function asResumeToken(value: unknown): ResumeToken {
  const parsed = resumeToken.safeParse(value);
  if (!parsed.success) throw new Error(`unexpected resume token shape: ${JSON.stringify(value)}`);
  return parsed.data;
}
