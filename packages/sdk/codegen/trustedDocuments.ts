// The trusted-documents manifest: sha256 hex of each document's exact text -> that text. The SDK
// sends `document.toString()` of these same generated documents, so the server (which hashes the
// incoming `query` string) finds every SDK request here and nothing else. Written by
// `npm run codegen` to packages/sdk/trusted-documents.json; a test fails on drift.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { mutations, queries, subscriptions } from '../src/generated/operations.ts';

export const MANIFEST_PATH = fileURLToPath(new URL('../trusted-documents.json', import.meta.url));

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function trustedDocuments(): Record<string, string> {
  const texts = [queries, mutations, subscriptions].flatMap((table) =>
    Object.values(table).map((entry) => entry.document.toString()),
  );
  return Object.fromEntries(
    texts.map((text) => [sha256Hex(text), text] as const).sort(([a], [b]) => a.localeCompare(b)),
  );
}

export function manifestText(): string {
  return `${JSON.stringify(trustedDocuments(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(MANIFEST_PATH, manifestText());
}
