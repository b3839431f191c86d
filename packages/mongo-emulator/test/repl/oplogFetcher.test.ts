// Proves the oplog fetcher on its own, against a scripted sync source: a fetched batch whose
// metadata names a primary of our term postpones the election timer (mongod's
// DataReplicatorExternalStateImpl::processMetadata), one that names none or an older term does
// not, and every batch carries the commit point forward. The process-level proof that a set
// with long heartbeats keeps its primary is stability.test.ts.
import { Timestamp } from 'bson';
import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/engine/types.ts';
import { MemberState } from '../../src/repl/memberState.ts';
import { OplogFetcher } from '../../src/repl/OplogFetcher.ts';
import type { OpTime } from '../../src/repl/opTime.ts';
import type { PeerCommander } from '../../src/repl/PeerClient.ts';

const OUR_TERM = 2n;
const LAST: OpTime = { ts: new Timestamp({ t: 100, i: 1 }), t: OUR_TERM };
const CURSOR_ID = 7n;

interface Outcome {
  postponed: number;
  commitPoints: OpTime[];
  divergences: number;
  commands: string[];
}

/**
 * Runs a fetcher against a source that answers the tailing find with our last entry, then one
 * getMore carrying `replData`; stops the fetcher once that batch was handed to the applier.
 */
async function fetchOneBatch(replData: Document, firstEntry: Document = { ts: LAST.ts, t: LAST.t }): Promise<Outcome> {
  const outcome: Outcome = { postponed: 0, commitPoints: [], divergences: 0, commands: [] };
  const stop = new AbortController();
  let applied = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const source: PeerCommander = {
    address: 'source:1',
    close: () => undefined,
    command: (_db, command) => {
      const name = Object.keys(command)[0]!;
      outcome.commands.push(name);
      if (name === 'find') return Promise.resolve({ ok: 1, cursor: { id: CURSOR_ID, firstBatch: [firstEntry] } });
      if (name === 'getMore')
        return Promise.resolve({ ok: 1, cursor: { id: CURSOR_ID, nextBatch: [] }, $replData: replData });
      return Promise.resolve({ ok: 1 });
    },
  };
  const fetcher: OplogFetcher = new OplogFetcher({
    address: 'self:1',
    logger: { warn: () => undefined },
    stopSignal: stop.signal,
    producerStopped: () => false,
    state: () => MemberState.SECONDARY,
    lastApplied: () => LAST,
    term: () => OUR_TERM,
    electionTimeoutMs: () => 1_000,
    heartbeatIntervalMs: () => 1_000,
    chooseSyncSource: () => source.address,
    connect: () => source,
    applyBatch: () => {
      // The first call holds what followed our entry in the find; the second, the getMore's batch.
      if (++applied === 2) {
        fetcher.stop();
        done();
      }
      return Promise.resolve();
    },
    initialSync: () => Promise.resolve(),
    onDivergence: () => {
      outcome.divergences += 1;
      fetcher.stop();
      done();
      return Promise.resolve();
    },
    advanceCommitPoint: (opTime) => outcome.commitPoints.push(opTime),
    postponeElection: () => {
      outcome.postponed += 1;
    },
  });
  fetcher.start();
  await finished;
  return outcome;
}

const committed: OpTime = { ts: new Timestamp({ t: 99, i: 1 }), t: OUR_TERM };

describe('the oplog fetcher', () => {
  it('postpones the election when a fetched batch names a primary of our term', async () => {
    const outcome = await fetchOneBatch({ term: OUR_TERM, primaryIndex: 0, lastOpCommitted: committed });
    expect(outcome.postponed).toBe(1);
    expect(outcome.commitPoints).toEqual([committed]);
  });

  it('does not postpone it for a batch that names no primary, or a primary of an older term', async () => {
    const noPrimary = await fetchOneBatch({ term: OUR_TERM, primaryIndex: -1, lastOpCommitted: committed });
    expect(noPrimary.postponed).toBe(0);
    expect(noPrimary.commitPoints).toEqual([committed]);
    const olderTerm = await fetchOneBatch({ term: OUR_TERM - 1n, primaryIndex: 0, lastOpCommitted: committed });
    expect(olderTerm.postponed).toBe(0);
  });

  it('kills its cursor on the source when it stops', async () => {
    const outcome = await fetchOneBatch({ term: OUR_TERM, primaryIndex: 0, lastOpCommitted: committed });
    await expect.poll(() => outcome.commands).toEqual(['find', 'getMore', 'killCursors']);
  });

  it('hands a source whose oplog holds another entry at our last optime to rollback', async () => {
    const outcome = await fetchOneBatch({}, { ts: LAST.ts, t: OUR_TERM - 1n });
    expect(outcome.divergences).toBe(1);
    expect(outcome.commands).toEqual(['find']);
  });
});
