// The transaction protocol as mongod 7.0 answers it, spoken over a raw socket so the order of
// commands is ours, not the driver's: codes, labels, idempotent commit, expiry, session end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.ts';
import { RawSession } from './rawSession.ts';

const DB = 'txn_lifecycle';
let emulator: RunningEmulator;
const sessions: RawSession[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  for (const session of sessions) session.close();
  await emulator.stop();
});

async function session(on: RunningEmulator = emulator): Promise<RawSession> {
  const s = await RawSession.open(on.port);
  sessions.push(s);
  return s;
}

const commit = { commitTransaction: 1 };
const abort = { abortTransaction: 1 };

async function findAll(s: RawSession, coll: string): Promise<unknown[]> {
  const reply = await s.run(DB, { find: coll, filter: {}, sort: { _id: 1 } });
  return (reply.cursor as { firstBatch: unknown[] }).firstBatch;
}

describe('commit and abort', () => {
  it('commits once however often the commit is retried', async () => {
    const s = await session();
    expect(await s.run(DB, { insert: 'retry', documents: [{ _id: 1 }] }, { txnNumber: 1, start: true })).toMatchObject({
      ok: 1,
      n: 1,
    });
    expect(await s.run('admin', commit, { txnNumber: 1 })).toMatchObject({ ok: 1 });
    expect(await s.run('admin', { ...commit, writeConcern: { w: 'majority' } }, { txnNumber: 1 })).toMatchObject({
      ok: 1,
    });
    expect(await findAll(s, 'retry')).toEqual([{ _id: 1 }]);
  });

  it('answers NoSuchTransaction with TransientTransactionError to a commit after abort', async () => {
    const s = await session();
    await s.run(DB, { insert: 'aborted', documents: [{ _id: 1 }] }, { txnNumber: 1, start: true });
    expect(await s.run('admin', abort, { txnNumber: 1 })).toMatchObject({ ok: 1 });
    expect(await s.run('admin', commit, { txnNumber: 1 })).toMatchObject({
      ok: 0,
      code: 251,
      codeName: 'NoSuchTransaction',
      errorLabels: ['TransientTransactionError'],
    });
    expect(await findAll(s, 'aborted')).toEqual([]);
  });

  it('answers TransactionCommitted to an abort after commit', async () => {
    const s = await session();
    await s.run(DB, { insert: 'committed', documents: [{ _id: 1 }] }, { txnNumber: 1, start: true });
    await s.run('admin', commit, { txnNumber: 1 });
    expect(await s.run('admin', abort, { txnNumber: 1 })).toMatchObject({
      ok: 0,
      code: 256,
      codeName: 'TransactionCommitted',
    });
  });

  it('refuses commitTransaction outside the admin database', async () => {
    const s = await session();
    await s.run(DB, { find: 'x', filter: {} }, { txnNumber: 1, start: true });
    expect(await s.run(DB, commit, { txnNumber: 1 })).toMatchObject({ ok: 0, codeName: 'Unauthorized' });
  });

  it('answers a commit whose write concern cannot be met with a writeConcernError after committing', async () => {
    const s = await session();
    await s.run(DB, { insert: 'wc', documents: [{ _id: 1 }] }, { txnNumber: 1, start: true });
    const reply = await s.run('admin', { ...commit, writeConcern: { w: 3 } }, { txnNumber: 1 });
    expect(reply).toMatchObject({ ok: 1, writeConcernError: { code: 100, codeName: 'UnsatisfiableWriteConcern' } });
    expect(reply.errorLabels).toBeUndefined();
    expect(await findAll(s, 'wc')).toEqual([{ _id: 1 }]);
  });
});

describe('statement checks', () => {
  it('refuses count inside a transaction without ending it', async () => {
    const s = await session();
    await s.run(DB, { insert: 'count', documents: [{ _id: 1 }] }, { txnNumber: 1, start: true });
    expect(await s.run(DB, { count: 'count' }, { txnNumber: 1 })).toMatchObject({
      ok: 0,
      code: 263,
      codeName: 'OperationNotSupportedInTransaction',
      errmsg: "Cannot run 'count' in a multi-document transaction.",
    });
    expect(await s.run('admin', commit, { txnNumber: 1 })).toMatchObject({ ok: 1 });
  });

  it('refuses readConcern after the first statement and a stale txnNumber', async () => {
    const s = await session();
    await s.run(DB, { find: 'rc', filter: {} }, { txnNumber: 5, start: true });
    expect(
      await s.run(DB, { find: 'rc', filter: {}, readConcern: { level: 'snapshot' } }, { txnNumber: 5 }),
    ).toMatchObject({ ok: 0, codeName: 'InvalidOptions' });
    expect(await s.run(DB, { find: 'rc', filter: {} }, { txnNumber: 4, start: true })).toMatchObject({
      ok: 0,
      code: 225,
      codeName: 'TransactionTooOld',
    });
    expect(await s.run(DB, { find: 'rc', filter: {} }, { txnNumber: 6 })).toMatchObject({
      ok: 0,
      codeName: 'NoSuchTransaction',
      errorLabels: ['TransientTransactionError'],
    });
  });

  it('refuses autocommit: true and startTransaction without autocommit', async () => {
    const s = await session();
    expect(await s.run(DB, { find: 'opts', filter: {}, txnNumber: 1, autocommit: true })).toMatchObject({
      ok: 0,
      codeName: 'InvalidOptions',
    });
    expect(await s.run(DB, { find: 'opts', filter: {}, txnNumber: 1, startTransaction: true })).toMatchObject({
      ok: 0,
      codeName: 'InvalidOptions',
    });
  });

  it('labels a fail-point error inside a transaction TransientTransactionError when its code is transient', async () => {
    const s = await session();
    await s.run(DB, { insert: 'fp', documents: [{ _id: 1 }] }, { txnNumber: 1, start: true });
    await s.run('admin', {
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['insert'], errorCode: 112 },
    });
    expect(await s.run(DB, { insert: 'fp', documents: [{ _id: 2 }] }, { txnNumber: 1 })).toMatchObject({
      ok: 0,
      code: 112,
      errorLabels: ['TransientTransactionError'],
    });
  });
});

describe('the end of a transaction the client left open', () => {
  it('aborts it after transactionLifetimeLimitSeconds and frees what it held', async () => {
    const shortLived = await startEmulator({ port: 0, transactionLifetimeLimitSeconds: 0.2 });
    try {
      const s = await session(shortLived);
      const other = await session(shortLived);
      await s.run(DB, { insert: 'expiry', documents: [{ _id: 1 }] }, { txnNumber: 1, start: true });
      // No sleep: a plain write of the key the transaction holds waits until the transaction ends,
      // which only the lifetime limit can do here (well inside this maxTimeMS).
      expect(await other.run(DB, { insert: 'expiry', documents: [{ _id: 1 }], maxTimeMS: 20_000 })).toMatchObject({
        ok: 1,
        n: 1,
      });
      expect(await s.run(DB, { insert: 'expiry', documents: [{ _id: 2 }] }, { txnNumber: 1 })).toMatchObject({
        ok: 0,
        codeName: 'NoSuchTransaction',
      });
    } finally {
      await shortLived.stop();
    }
  });

  it("takes mongod's 60 s limit by default, and a new one from setParameter for transactions begun after", async () => {
    const s = await session();
    const other = await session();
    const limit = { getParameter: 1, transactionLifetimeLimitSeconds: 1 };
    expect(await s.run('admin', limit)).toMatchObject({ ok: 1, transactionLifetimeLimitSeconds: 60 });
    await s.run(DB, { insert: 'limit', documents: [{ _id: 'before' }] }, { txnNumber: 1, start: true });
    expect(await s.run('admin', { setParameter: 1, transactionLifetimeLimitSeconds: 1 })).toMatchObject({
      ok: 1,
      was: 60,
    });
    try {
      expect(await s.run('admin', limit)).toMatchObject({ ok: 1, transactionLifetimeLimitSeconds: 1 });
      const late = await session();
      await late.run(DB, { insert: 'limit', documents: [{ _id: 'after' }] }, { txnNumber: 1, start: true });
      // The later transaction expires after 1 s and frees its key; the earlier one keeps 60 s.
      expect(await other.run(DB, { insert: 'limit', documents: [{ _id: 'after' }], maxTimeMS: 20_000 })).toMatchObject({
        ok: 1,
        n: 1,
      });
      expect(await other.run(DB, { insert: 'limit', documents: [{ _id: 'before' }], maxTimeMS: 200 })).toMatchObject({
        ok: 0,
        codeName: 'MaxTimeMSExpired',
      });
      expect(await s.run('admin', commit, { txnNumber: 1 })).toMatchObject({ ok: 1 });
    } finally {
      await s.run('admin', { setParameter: 1, transactionLifetimeLimitSeconds: 60 });
    }
  });

  it('refuses setParameter values and names as mongod does', async () => {
    const s = await session();
    expect(await s.run('admin', { setParameter: 1, transactionLifetimeLimitSeconds: 0 })).toMatchObject({
      ok: 0,
      codeName: 'BadValue',
    });
    expect(await s.run('admin', { setParameter: 1, transactionLifetimeLimitSeconds: 'ten' })).toMatchObject({
      ok: 0,
      codeName: 'BadValue',
    });
    expect(await s.run('admin', { setParameter: 1, noSuchParameter: 1 })).toMatchObject({
      ok: 0,
      codeName: 'InvalidOptions',
      errmsg: 'attempted to set unrecognized parameter [noSuchParameter], use help:true to see options ',
    });
    expect(await s.run('admin', { setParameter: 1, enableTestCommands: 0 })).toMatchObject({
      ok: 0,
      codeName: 'IllegalOperation',
    });
    expect(await s.run('admin', { setParameter: 1 })).toMatchObject({ ok: 0, codeName: 'InvalidOptions' });
    expect(await s.run(DB, { setParameter: 1, transactionLifetimeLimitSeconds: 5 })).toMatchObject({
      ok: 0,
      codeName: 'Unauthorized',
    });
    expect(await s.run('admin', { getParameter: 1, transactionLifetimeLimitSeconds: 1 })).toMatchObject({
      transactionLifetimeLimitSeconds: 60,
    });
  });

  it('aborts it when its session ends', async () => {
    const s = await session();
    const other = await session();
    await s.run(DB, { insert: 'ended', documents: [{ _id: 1 }] }, { txnNumber: 1, start: true });
    await other.run('admin', { endSessions: [s.lsid] });
    expect(await other.run(DB, { insert: 'ended', documents: [{ _id: 1 }], maxTimeMS: 200 })).toMatchObject({
      ok: 1,
      n: 1,
    });
    expect(await s.run('admin', commit, { txnNumber: 1 })).toMatchObject({ ok: 0, codeName: 'NoSuchTransaction' });
  });
});
