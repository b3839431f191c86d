// The trusted-documents manifest and its settings, apart from the GraphQL gate that enforces them
// (trustedDocuments.ts), so config.ts can check a manifest at start-up without reaching graphql.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

export const TRUSTED_DOCUMENT_MODES = ['off', 'log', 'enforce'] as const;
export type TrustedDocumentMode = (typeof TRUSTED_DOCUMENT_MODES)[number];

export interface TrustedDocumentsConfig {
  mode: TrustedDocumentMode;
  manifestPath: string;
  /** Whether an `admin` key may send documents outside the manifest in `enforce`. */
  adminAdHoc: boolean;
}

export function documentHash(query: string): string {
  return createHash('sha256').update(query, 'utf8').digest('hex');
}

/** Reads and checks a manifest: an object of sha256 hex → the text it is the hash of. */
export function readManifest(
  path: string,
): { ok: true; hashes: ReadonlySet<string>; texts: ReadonlySet<string> } | { ok: false; error: string } {
  if (!existsSync(path))
    return {
      ok: false,
      error: `the manifest ${path} does not exist (build the SDK, or set TRUSTED_DOCUMENTS_MANIFEST)`,
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { ok: false, error: `the manifest ${path} is not JSON: ${(error as Error).message}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, error: `the manifest ${path} must be an object of sha256 hex → query text` };
  }
  for (const [hash, text] of Object.entries(parsed)) {
    if (typeof text !== 'string' || documentHash(text) !== hash) {
      return { ok: false, error: `the manifest ${path} maps ${hash.slice(0, 16)}… to text whose sha256 differs` };
    }
  }
  return { ok: true, hashes: new Set(Object.keys(parsed)), texts: new Set(Object.values(parsed) as string[]) };
}
