import type { WorkService } from '../work/index.ts';
import type { PayoutsWriter, PayoutWriter } from './payoutWriter.ts';

// Where the payout projection hands each applied withdrawal's payout: the one interface it writes
// through. `work-items` (the default) is the work service's upsert on `payout:<entryId>` (the
// claim pattern's PAYOUT items, seed 000); `bullmq` adds a job to a BullMQ queue, keyed by the
// entry in MongoDB first (src/payouts/bullmqSink.ts, seed 003's watcher plus queue). Both resolve
// a write only once the payout is durably handed over, so the projection stores its resume token
// after it (at-least-once), and both make a replay of the same entry a no-op (P1).

export const PAYOUT_SINK_KINDS = ['work-items', 'bullmq'] as const;
export type PayoutSinkKind = (typeof PAYOUT_SINK_KINDS)[number];

/** A dependency of the sink besides MongoDB (BullMQ's Redis), as /readyz reports it. */
export interface SinkDependencyHealth {
  name: string;
  ok: boolean;
  latencyMs: number | null;
  error: string | null;
}

export interface PayoutSink {
  readonly kind: PayoutSinkKind;
  /** The BullMQ queue's name; null for work items. */
  readonly queueName: string | null;
  /** One payout (the catch-up's walk); `created` is false when the entry was handed over already. */
  writePayout: PayoutWriter;
  /** The payouts of a batch of events; `created` counts the entries not handed over before. */
  writePayouts: PayoutsWriter;
  /** Of `entryIds`, those whose payout is handed over for good (the catch-up skips them). */
  entriesWithPayout(entryIds: readonly string[]): Promise<Set<string>>;
  /** Its indexes and connections, before the projection starts. */
  start(): Promise<void>;
  /** What /readyz shows of the sink's own dependency; null when it has none. */
  check(): Promise<SinkDependencyHealth | null>;
  /** After the projection stopped. */
  close(): Promise<void>;
}

/** Today's behaviour: PAYOUT work items through the work service's upserts on their unique key. */
export function workItemsSink(
  work: Pick<WorkService, 'createPayout' | 'createPayouts' | 'entriesWithPayout'>,
): PayoutSink {
  return {
    kind: 'work-items',
    queueName: null,
    writePayout: work.createPayout,
    writePayouts: work.createPayouts,
    entriesWithPayout: (entryIds) => work.entriesWithPayout(entryIds),
    start: async () => undefined,
    check: async () => null,
    close: async () => undefined,
  };
}
