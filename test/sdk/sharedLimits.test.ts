// Bounds the SDK must know without asking the server (it is a separate package and imports
// nothing of src/): each copy is compared here with the server's own, so changing one alone fails.
import { describe, expect, it } from 'vitest';
import { CLAIM_BATCH_MAX, COMPLETE_BATCH_MAX, HEARTBEAT_BATCH_MAX } from '../../packages/sdk/src/worker.ts';
import { WorkLimits } from '../../src/work/limits.ts';

describe('limits the SDK shares with the server', () => {
  it('claims at most as many items per claimWorkItems as the server accepts', () => {
    expect(CLAIM_BATCH_MAX).toBe(WorkLimits.claimBatchMax);
  });

  it('completes and heartbeats at most as many items per call as the server accepts', () => {
    expect(COMPLETE_BATCH_MAX).toBe(WorkLimits.completeBatchMax);
    expect(HEARTBEAT_BATCH_MAX).toBe(WorkLimits.heartbeatBatchMax);
  });
});
