import { Binary } from 'bson';
import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';

/** Logical sessions tracked at once (mongod's maxSessions default). */
const SESSIONS_MAX = 1_000_000;
/** A session unused this long is forgotten (logicalSessionTimeoutMinutes: 30). */
const SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

/** One logical session: its newest retryable write and what each of its statements returned. */
export interface LogicalSession {
  readonly key: string;
  txnNumber: bigint;
  /** Results of the statements of `txnNumber` that were applied, by stmtId. */
  readonly executed: Map<number, unknown>;
  lastUsedMs: number;
}

/** Sessions by `lsid.id`, created on first use, as mongod's session catalog does. */
export class SessionRegistry {
  private readonly sessions = new Map<string, LogicalSession>();

  /** The session a command's `lsid` names, or undefined when it carries none. */
  touch(lsid: unknown): LogicalSession | undefined {
    if (lsid === undefined) return undefined;
    const key = sessionKey(lsid);
    let session = this.sessions.get(key);
    if (!session) {
      if (this.sessions.size >= SESSIONS_MAX) this.dropIdle();
      if (this.sessions.size >= SESSIONS_MAX) {
        throw new CommandError(
          'TooManyLogicalSessions',
          `Unable to add session into the cache because the number of active sessions is too high`,
        );
      }
      session = { key, txnNumber: -1n, executed: new Map(), lastUsedMs: Date.now() };
      this.sessions.set(key, session);
    }
    session.lastUsedMs = Date.now();
    return session;
  }

  /** Every session in the cache: its lsid.id and when it was last used ($listLocalSessions). */
  list(): { id: Binary; lastUse: Date }[] {
    return [...this.sessions.values()].map((s) => ({
      id: new Binary(Buffer.from(s.key, 'hex'), Binary.SUBTYPE_UUID),
      lastUse: new Date(s.lastUsedMs),
    }));
  }

  /** Every session in the cache (a checkpoint saves their retryable-write records). */
  entries(): LogicalSession[] {
    return [...this.sessions.values()];
  }

  end(lsids: unknown[]): void {
    for (const lsid of lsids) this.sessions.delete(sessionKey(lsid));
  }

  clear(): void {
    this.sessions.clear();
  }

  get size(): number {
    return this.sessions.size;
  }

  private dropIdle(): void {
    const oldestAllowedMs = Date.now() - SESSION_IDLE_TIMEOUT_MS;
    for (const [key, session] of this.sessions) if (session.lastUsedMs < oldestAllowedMs) this.sessions.delete(key);
  }
}

/** The key a session is known by: its `lsid.id` UUID in hex. */
export function sessionKey(lsid: unknown): string {
  const id = (lsid as Document | null)?.id;
  if (!(id instanceof Binary) || id.sub_type !== Binary.SUBTYPE_UUID) {
    throw new CommandError('InvalidUUID', 'lsid.id must be a UUID');
  }
  return Buffer.from(id.buffer).toString('hex');
}
