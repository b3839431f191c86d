// The lease-job runner (src/db/leaseJob.ts) that the payout projection, the hold sweeper and the
// ledger audit run on: one holder works at a time, a lease taken over ends the old holder's turns
// (its renewal matches nothing), a stop hands the lease back at once, and a stop returns within
// its grace even when a turn ignores the signal. Real leases on the test engine's clock.
import { randomBytes } from 'node:crypto';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLease, leaseCollection, type LeaseDoc } from '../../src/db/lease.ts';
import { createLeaseJobTelemetry, holderOf, LeaseJob, type LeaseWork } from '../../src/db/leaseJob.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';

let test: TestDb;
const logger = createLogger({ level: 'silent' });
const registry = new Registry();
const telemetry = createLeaseJobTelemetry(registry);
const jobs: LeaseJob[] = [];

beforeAll(async () => {
  test = await connectTestDb('lease_job');
});
afterAll(async () => {
  await Promise.all(jobs.map((job) => job.stop()));
  await test?.close();
});

const leases = () => leaseCollection<LeaseDoc>(test.db, 'lease_jobs');
const metric = async (name: string, labels: string) =>
  Number(new RegExp(`${name}\\{${labels}\\} (\\d+)`).exec(await registry.getSingleMetricAsString(name))?.[1] ?? 0);

function job(
  name: string,
  processId: string,
  work: LeaseWork,
  overrides: { leaseDurationMs?: number; stopGraceMs?: number } = {},
): LeaseJob {
  const created = new LeaseJob(
    {
      name,
      leases: leases(),
      holder: holderOf(processId, name),
      leaseDurationMs: overrides.leaseDurationMs ?? 5_000,
      intervalMs: 20,
      logger,
      telemetry,
      ...overrides,
    },
    work,
  );
  jobs.push(created);
  return created;
}

/** A job's work that records which holder ran each turn, and counts its stand-bys. */
function recording(turns: string[], holder: string, standbys = { count: 0 }): LeaseWork {
  return {
    turn: async ({ lease }) => {
      turns.push(holder);
      expect(lease.holder).toBe(holder);
      return 'idle';
    },
    standby: () => {
      standbys.count += 1;
    },
  };
}

describe('the lease-job runner', () => {
  it('runs one holder at a time, named by process and job, and hands over at once on stop', async () => {
    const name = `one-${randomBytes(3).toString('hex')}`;
    const turns: string[] = [];
    const a = job(name, 'proc-a', recording(turns, holderOf('proc-a', name)));
    a.start();
    await expect.poll(() => turns.length).toBeGreaterThan(2);
    const b = job(name, 'proc-b', recording(turns, holderOf('proc-b', name)));
    b.start();
    const seen = turns.length;
    await expect.poll(() => turns.length).toBeGreaterThan(seen + 3);
    // While A holds the lease, B only stands by.
    expect(new Set(turns)).toEqual(new Set([holderOf('proc-a', name)]));
    expect(await metric('lease_job_held', `job="${name}"`)).toBe(1);
    // A's stop releases the lease: B takes it at its next attempt, not after the 5 s lease.
    const stoppedAtMs = Date.now();
    await a.stop();
    await expect.poll(() => turns.at(-1), { timeout: 4_000 }).toBe(holderOf('proc-b', name));
    expect(Date.now() - stoppedAtMs).toBeLessThan(4_000);
    expect(await metric('lease_job_events_total', `job="${name}",event="released"`)).toBe(1);
    await b.stop();
  });

  it('ends the turns of a holder whose lease was taken over: its renewal matches nothing', async () => {
    const name = `fenced-${randomBytes(3).toString('hex')}`;
    const turns: string[] = [];
    const standbys = { count: 0 };
    const a = job(name, 'proc-a', recording(turns, holderOf('proc-a', name), standbys));
    a.start();
    await expect.poll(() => turns.length).toBeGreaterThan(1);
    // Another process takes the lease over (as after A stalled past its expiry).
    await leases().updateOne({ _id: name }, [{ $set: { expiresAt: { $subtract: ['$$NOW', 1] } } }]);
    const thief = await acquireLease(leases(), name, 'proc-thief', 60_000);
    expect(thief?.lease.version).toBeGreaterThan(1);
    await expect.poll(() => metric('lease_job_events_total', `job="${name}",event="lost"`)).toBe(1);
    const after = turns.length;
    expect(await metric('lease_job_held', `job="${name}"`)).toBe(0);
    // No turn of A's runs under the lease it lost, while it keeps trying to take it again.
    const standbysAtLoss = standbys.count;
    await expect.poll(() => standbys.count).toBeGreaterThan(standbysAtLoss + 3);
    expect(turns.length).toBe(after);
    expect((await leases().findOne({ _id: name }))?.holder).toBe('proc-thief');
    await a.stop();
  });

  it('stops within its grace whatever a turn waits on, and at once when the turn heeds the signal', async () => {
    const name = `grace-${randomBytes(3).toString('hex')}`;
    let started = false;
    const stuck = job(
      name,
      'proc-stuck',
      {
        turn: async () => {
          started = true;
          return new Promise<never>(() => undefined); // waits on something that never answers
        },
      },
      { stopGraceMs: 500 },
    );
    stuck.start();
    await expect.poll(() => started).toBe(true);
    const stopStartedMs = Date.now();
    await stuck.stop();
    const stopMs = Date.now() - stopStartedMs;
    expect(stopMs).toBeGreaterThanOrEqual(450);
    expect(stopMs).toBeLessThan(3_000);

    const heeding = `heeding-${randomBytes(3).toString('hex')}`;
    let waiting = false;
    const polite = job(
      heeding,
      'proc-polite',
      {
        turn: ({ signal }) =>
          new Promise((resolve) => {
            waiting = true;
            signal.addEventListener('abort', () => resolve('idle'), { once: true });
          }),
      },
      { stopGraceMs: 60_000 },
    );
    polite.start();
    await expect.poll(() => waiting).toBe(true);
    const politeStartedMs = Date.now();
    await polite.stop();
    expect(Date.now() - politeStartedMs).toBeLessThan(3_000);
    // Released: another process takes it at once.
    expect(await acquireLease(leases(), heeding, 'proc-next', 5_000)).not.toBeNull();
  });
});
