// API keys: parsing `API_KEYS="token1=role1,token2=role2"`, and looking a presented token up in
// constant time. A key never leaves this module except as its fingerprint (`keyId`), which is
// what logs and the context carry.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isRole, ROLES, type Role } from './roles.ts';

export interface ApiKeyEntry {
  token: string;
  role: Role;
}

export interface Principal {
  role: Role;
  /** A short fingerprint of the key, safe to log. */
  keyId: string;
}

const TOKEN_LENGTH_MIN = 16;
const TOKEN_LENGTH_MAX = 512;
const KEY_COUNT_MAX = 1_000;
const TOKEN_PATTERN = /^[A-Za-z0-9._~+/-]+$/;

type ParseResult = { ok: true; entries: ApiKeyEntry[] } | { ok: false; error: string };

/** Parses API_KEYS. Errors name the entry by position, never by its token. */
export function parseApiKeys(raw: string): ParseResult {
  const items = raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length > KEY_COUNT_MAX) return { ok: false, error: `expected at most ${KEY_COUNT_MAX} keys` };
  const entries: ApiKeyEntry[] = [];
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    const at = item.lastIndexOf('=');
    const token = item.slice(0, Math.max(at, 0));
    const role = item.slice(at + 1);
    const where = `entry ${index + 1}`;
    if (at <= 0) return { ok: false, error: `${where}: expected token=role` };
    if (!isRole(role)) return { ok: false, error: `${where}: expected a role among ${ROLES.join(', ')}` };
    if (token.length < TOKEN_LENGTH_MIN || token.length > TOKEN_LENGTH_MAX || !TOKEN_PATTERN.test(token)) {
      return {
        ok: false,
        error: `${where}: expected a token of ${TOKEN_LENGTH_MIN} to ${TOKEN_LENGTH_MAX} characters from [A-Za-z0-9._~+/-]`,
      };
    }
    if (seen.has(token)) return { ok: false, error: `${where}: the same token appears twice` };
    seen.add(token);
    entries.push({ token, role });
  }
  if (entries.length === 0) return { ok: false, error: 'expected at least one token=role' };
  return { ok: true, entries };
}

export function generateApiKey(): string {
  return randomBytes(24).toString('base64url');
}

export function keyFingerprint(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 12);
}

/** Why a request carries no principal. */
export type AuthFailure = 'missing' | 'malformed' | 'placeholder' | 'unknown';
export type Authentication = { ok: true; principal: Principal } | { ok: false; failure: AuthFailure };

export class Keyring {
  // Tokens are compared as SHA-256 digests: equal lengths, so timingSafeEqual applies, and the
  // comparison walks every key so the time taken does not tell which one (if any) matched.
  readonly #keys: ReadonlyArray<{ digest: Buffer; principal: Principal }>;
  // Tokens this keyring has already matched, so a client's every request after its first skips
  // the hash and the walk (~20 us of CPU). Only a full match is remembered, never a miss: an
  // unknown or partly right token always takes the constant-time path, and a hit says no more than
  // the answer does (the token is valid). Bounded by the configured keys (KEY_COUNT_MAX), which
  // never change while the process runs, so an entry needs no expiry.
  readonly #matched = new Map<string, Principal>();

  constructor(entries: readonly ApiKeyEntry[]) {
    this.#keys = entries.map(({ token, role }) => ({
      digest: createHash('sha256').update(token).digest(),
      principal: { role, keyId: keyFingerprint(token) },
    }));
  }

  /** Authenticates an `Authorization` value (`Bearer <token>`), from HTTP or graphql-ws. */
  authenticate(authorization: unknown): Authentication {
    if (authorization === undefined || authorization === null || authorization === '') {
      return { ok: false, failure: 'missing' };
    }
    // `Bearer <the printed key>`, the README's placeholder pasted as it is: say what to paste.
    if (typeof authorization === 'string' && /<[^>]*>/.test(authorization))
      return { ok: false, failure: 'placeholder' };
    const match = typeof authorization === 'string' ? /^Bearer ([^\s]{1,512})$/i.exec(authorization.trim()) : null;
    if (!match) return { ok: false, failure: 'malformed' };
    const token = match[1] as string;
    const known = this.#matched.get(token);
    if (known) return { ok: true, principal: known };
    const digest = createHash('sha256').update(token).digest();
    let found: Principal | undefined;
    for (const key of this.#keys) {
      if (timingSafeEqual(key.digest, digest)) found = key.principal;
    }
    if (!found) return { ok: false, failure: 'unknown' };
    this.#matched.set(token, found);
    return { ok: true, principal: found };
  }
}
