// Proves trusted documents against a fixture manifest (the SDK's real one is built elsewhere):
// in `enforce` a document outside the manifest is refused with UNTRUSTED_DOCUMENT before it runs
// (the refused mutation would have opened an account), a listed one runs byte for byte, a bare
// persisted-query hash is refused, admin ad-hoc documents follow the setting, and graphql-ws is
// held to the same; `log` runs unknown documents but counts them; `enforce` without a manifest is
// a start-up error naming the variable; a manifest whose hashes lie is refused.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { metricValue } from '../payouts/support/payouts.ts';

const MANIFEST = fileURLToPath(new URL('./fixtures/trusted-documents.json', import.meta.url));
const HEALTH = 'query Health { health { engine } }';
const OPEN = 'mutation OpenAccount($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }';

describe('TRUSTED_DOCUMENTS=enforce', () => {
  let app: TestApp;
  let adminAdHoc: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { TRUSTED_DOCUMENTS: 'enforce', TRUSTED_DOCUMENTS_MANIFEST: MANIFEST, SEED_DEMO: '0' },
    });
    adminAdHoc = await startTestApp({
      env: {
        TRUSTED_DOCUMENTS: 'enforce',
        TRUSTED_DOCUMENTS_MANIFEST: MANIFEST,
        TRUSTED_DOCUMENTS_ADMIN_ADHOC: '1',
        SEED_DEMO: '0',
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await adminAdHoc?.close();
  });

  it('runs the manifest documents exactly as listed', async () => {
    expect((await app.gql(HEALTH, {}, { key: 'dashboard' })).data).toEqual({ health: { engine: expect.any(String) } });
    const opened = await app.gql(OPEN, { input: { accountId: 'trusted-1', currency: 'EUR' } }, { key: 'service' });
    expect(opened.data).toEqual({ openAccount: { __typename: 'OpenAccountSuccess' } });
  });

  it('refuses any other document, one space different included, before it runs', async () => {
    const adHoc = `mutation { openAccount(input: { accountId: "adhoc-1", currency: "EUR" }) { __typename } }`;
    const res = await app.gql(adHoc, {}, { key: 'service' });
    expect(res.status).toBe(400);
    expect(res.data).toBeUndefined();
    expect(res.errors).toEqual([
      {
        message: expect.stringMatching(/^This document is not a trusted document \(sha256 [0-9a-f]{64}\)/),
        extensions: { code: 'UNTRUSTED_DOCUMENT' },
      },
    ]);
    expect(await app.db.collection('accounts').countDocuments({ _id: 'adhoc-1' } as never)).toBe(0);
    expect((await app.gql(`${HEALTH} `, {}, { key: 'dashboard' })).errors?.[0]?.extensions?.code).toBe(
      'UNTRUSTED_DOCUMENT',
    );
  });

  it('refuses a bare persisted-query hash, and unknown documents inside a batch', async () => {
    const post = (body: unknown) =>
      fetch(app.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.admin}` },
        body: JSON.stringify(body),
      });
    const hashOnly = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } });
    expect(hashOnly.status).toBe(400);
    expect(((await hashOnly.json()) as any).errors[0].extensions.code).toBe('UNTRUSTED_DOCUMENT');
    const batch = await post([{ query: HEALTH }, { query: '{ health { version } }' }]);
    expect(batch.status).toBe(400);
  });

  it('lets admin keys send ad-hoc documents only when TRUSTED_DOCUMENTS_ADMIN_ADHOC=1', async () => {
    const adHoc = '{ health { version } }';
    expect((await app.gql(adHoc, {}, { key: 'admin' })).errors?.[0]?.extensions?.code).toBe('UNTRUSTED_DOCUMENT');
    expect((await adminAdHoc.gql(adHoc, {}, { key: 'admin' })).errors).toBeUndefined();
    expect((await adminAdHoc.gql(adHoc, {}, { key: 'ops' })).errors?.[0]?.extensions?.code).toBe('UNTRUSTED_DOCUMENT');
  });

  it('holds graphql-ws to the same manifest', async () => {
    const ws = app.ws('ops');
    expect((await ws.execute(HEALTH)).data).toEqual({ health: { engine: expect.any(String) } });
    const refused = await ws.execute('{ health { version } }').catch((error: unknown) => error);
    expect(refused).toEqual([expect.objectContaining({ extensions: { code: 'UNTRUSTED_DOCUMENT' } })]);
  });
});

describe('TRUSTED_DOCUMENTS=log', () => {
  it('runs an unknown document and counts it', async () => {
    const app = await startTestApp({ env: { TRUSTED_DOCUMENTS: 'log', TRUSTED_DOCUMENTS_MANIFEST: MANIFEST } });
    try {
      const before = await metricValue(app.registry, 'graphql_untrusted_documents_total', { mode: 'log' });
      expect((await app.gql('{ health { version } }', {}, { key: 'ops' })).errors).toBeUndefined();
      expect((await app.gql(HEALTH, {}, { key: 'ops' })).errors).toBeUndefined();
      expect(await metricValue(app.registry, 'graphql_untrusted_documents_total', { mode: 'log' })).toBe(before + 1);
    } finally {
      await app.close();
    }
  });
});

describe('trusted documents configuration', () => {
  it('makes enforce without a manifest a start-up error naming the variable', () => {
    const missing = join(tmpdir(), 'no-such-dir', 'trusted-documents.json');
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: 'enforce', TRUSTED_DOCUMENTS_MANIFEST: missing })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: 'enforce', TRUSTED_DOCUMENTS_MANIFEST: missing })).toThrow(
      /TRUSTED_DOCUMENTS_MANIFEST: TRUSTED_DOCUMENTS=enforce, but the manifest .* does not exist/,
    );
    expect(loadConfig({ TRUSTED_DOCUMENTS: 'log', TRUSTED_DOCUMENTS_MANIFEST: missing }).trustedDocuments.mode).toBe(
      'log',
    );
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: 'strict' })).toThrow(/TRUSTED_DOCUMENTS/);
  });

  it('refuses a manifest whose hash does not match its text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trusted-'));
    const path = join(dir, 'manifest.json');
    writeFileSync(path, JSON.stringify({ ['0'.repeat(64)]: HEALTH }));
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: 'enforce', TRUSTED_DOCUMENTS_MANIFEST: path })).toThrow(
      /whose sha256 differs/,
    );
  });
});
