// The SDK's methods for schedules and groups (flow 8) against the running API: scheduleWork's
// members through the typed client, the `schedules` list with next fire times, unscheduleWork, a
// grouped item, and workQueueStats per group; the worker role may not schedule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, PreconditionError, type PreconditionClient } from '../../packages/sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let service: PreconditionClient;
beforeAll(async () => {
  app = await startTestApp();
  service = createClient({ url: app.url, apiKey: app.keys.service });
});
afterAll(async () => {
  await app?.close();
});

describe('schedules through the SDK', () => {
  it('schedules, lists with next fire times, replays, refuses, unschedules', async () => {
    const input = {
      name: 'sdk-nightly',
      kind: 'RECON',
      cron: '0 2 * * *',
      timeZone: 'Europe/Paris',
      payload: { scope: 'all' },
      catchUp: 'ALL' as const,
    };
    const made = await service.scheduleWork(input);
    if (made.__typename !== 'ScheduleWorkSuccess') throw new Error(made.__typename);
    expect(made.schedule).toMatchObject({
      name: 'sdk-nightly',
      kind: 'RECON',
      catchUp: 'ALL',
      timeZone: 'Europe/Paris',
      lastFiredAt: null,
    });
    expect(made.schedule.nextFireTimes).toHaveLength(10);
    // 02:00 in Paris is 01:00 or 00:00 UTC, a day apart each.
    expect(made.schedule.nextFireTimes.every((at) => /T0[01]:00:00\.000Z$/.test(at))).toBe(true);
    expect(await service.scheduleWork(input)).toMatchObject({
      __typename: 'DuplicateReplayed',
      requestId: 'sdk-nightly',
      original: { __typename: 'ScheduleWorkSuccess' },
    });
    expect(await service.scheduleWork({ ...input, kind: 'OTHER' })).toMatchObject({
      __typename: 'IdempotencyKeyReused',
      field: 'kind',
    });
    expect(await service.scheduleWork({ ...input, name: 'sdk-bad', cron: '* * 32 * *' })).toMatchObject({
      __typename: 'InvalidSchedule',
      detail: expect.stringContaining('32'),
    });
    const listed = await service.schedules({});
    expect(listed.map((s) => s.name)).toEqual(['sdk-nightly']);
    expect(listed[0]!.nextFireAt).toBe(made.schedule.nextFireTimes[0]);
    expect(await service.unscheduleWork({ name: 'sdk-nightly' })).toMatchObject({
      __typename: 'UnscheduleWorkSuccess',
      schedule: { name: 'sdk-nightly' },
    });
    expect(await service.unscheduleWork({ name: 'sdk-nightly' })).toMatchObject({
      __typename: 'ScheduleNotFound',
      name: 'sdk-nightly',
    });
  });

  it('refuses scheduleWork to the worker role', async () => {
    const worker = createClient({ url: app.url, apiKey: app.keys.worker });
    await expect(worker.scheduleWork({ name: 'nope', kind: 'X', cron: '* * * * *' })).rejects.toBeInstanceOf(
      PreconditionError,
    );
  });

  it('creates a grouped item and shows it per group', async () => {
    const created = await service.createWorkItem({ kind: 'SDKGRP', group: 'tenant-1' });
    expect(created).toMatchObject({ __typename: 'CreateWorkItemSuccess', item: { group: 'tenant-1' } });
    const stats = await service.workQueueStats();
    expect(stats.groups).toContainEqual({
      kind: 'SDKGRP',
      group: 'tenant-1',
      waiting: 1,
      running: 0,
      capped: false,
      limit: null,
    });
  });
});
