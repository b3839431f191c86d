// Trusted documents: in production the API runs only the operations the SDK ships. The SDK's
// build writes `packages/sdk/trusted-documents.json`, `{ "<sha256 hex of the exact query text>":
// "<query text>" }`; the server hashes each incoming `query` string the same way and looks it up.
// `off` checks nothing, `log` runs an unknown document but logs and counts it (to find the
// clients a switch to `enforce` would break), `enforce` refuses it before it is parsed. Admin keys
// may be let through with ad-hoc documents (TRUSTED_DOCUMENTS_ADMIN_ADHOC=1) for break-glass work.
import { GraphQLError } from 'graphql';
import type { Logger } from '../observability/logger.ts';
import type { Role } from '../access/roles.ts';
import { ErrorCode } from '../graphql/errors.ts';
import type { GraphqlTelemetry } from './telemetry.ts';
import { documentHash, readManifest, type TrustedDocumentsConfig } from '../access/trustedDocumentsManifest.ts';

export class TrustedDocuments {
  // The manifest's texts, checked is-in directly: each was verified against its hash when the
  // manifest was read, so a text found here has a listed hash without hashing it per request.
  // Only a text not found is hashed (a miss of both sets but for a SHA-256 collision).
  readonly #texts: ReadonlySet<string>;

  constructor(
    private readonly config: TrustedDocumentsConfig,
    private readonly logger: Logger,
    private readonly telemetry: Pick<GraphqlTelemetry, 'untrustedDocumentsTotal'>,
  ) {
    if (config.mode === 'off') {
      this.#texts = new Set();
      return;
    }
    const manifest = readManifest(config.manifestPath);
    if (!manifest.ok && config.mode === 'enforce') throw new Error(`TRUSTED_DOCUMENTS=enforce: ${manifest.error}`);
    if (!manifest.ok) logger.warn(`TRUSTED_DOCUMENTS=log: ${manifest.error}; every document counts as unknown`);
    this.#texts = manifest.ok ? manifest.texts : new Set();
    logger.info(
      { mode: config.mode, documents: this.#texts.size, manifest: config.manifestPath },
      'trusted documents loaded',
    );
  }

  /** The refusal for this operation, or null when it may run. `query` undefined: no document sent (a hash only). */
  check(query: unknown, role: Role | null): GraphQLError | null {
    if (this.config.mode === 'off') return null;
    if (typeof query !== 'string') {
      // A bare hash (automatic persisted queries) would run whatever Apollo cached from anyone.
      return this.config.mode === 'enforce'
        ? refusal('A trusted document must be sent as its full `query` text.')
        : null;
    }
    if (this.#texts.has(query)) return null;
    const hash = documentHash(query);
    const adHocAllowed = role === 'admin' && this.config.adminAdHoc;
    this.telemetry.untrustedDocumentsTotal.inc({
      mode: this.config.mode,
      allowed: String(this.config.mode === 'log' || adHocAllowed),
    });
    this.logger.warn({ hash, role, mode: this.config.mode }, 'document not in the trusted documents manifest');
    if (this.config.mode === 'log' || adHocAllowed) return null;
    return refusal(`This document is not a trusted document (sha256 ${hash}); send an operation the SDK ships.`);
  }
}

function refusal(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.UNTRUSTED_DOCUMENT } });
}
