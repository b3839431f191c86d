import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';
import { FailPoint } from './FailPoint.ts';
import { parseFailCommandData, type FailCommandAction } from './failCommand.ts';
import { getMoreFailure, parseGetMoreFailureData } from './failGetMoreAfterCursorCheckout.ts';
import { parseTransactionalWriteData, type TransactionalWriteAction } from './onPrimaryTransactionalWrite.ts';

/** What the command about to run is, for matching fail points against it. */
export interface CommandProbe {
  /** Every name the command answers to (canonical first), as mongod's hasAlias. */
  names: readonly string[];
  appName: string | undefined;
  /** `db.collection` the command targets, or `db.$cmd`. */
  namespace: string;
  /** The command comes from another replica-set member (mongod's internal client). */
  internalClient?: boolean;
}

/** failCommand's client filters, which mongod applies to the fail points that act like it. */
function matchesClient(filter: { appName?: string; namespace?: string }, probe: Omit<CommandProbe, 'names'>): boolean {
  return (
    (filter.appName === undefined || filter.appName === probe.appName) &&
    (filter.namespace === undefined || filter.namespace === probe.namespace)
  );
}

/** The fail points of one server; configuring any other name is refused as mongod does. */
export class FailPointRegistry {
  private readonly failCommand = new FailPoint(parseFailCommandData);
  private readonly onPrimaryTransactionalWrite = new FailPoint(parseTransactionalWriteData);
  private readonly failGetMoreAfterCursorCheckout = new FailPoint(parseGetMoreFailureData);
  // Replication's own (mongod's oplog_fetcher.cpp and oplog_applier.cpp): a member stops fetching
  // from its sync source, or stops applying what it fetched, while these are on.
  private readonly stopReplProducer = new FailPoint(() => ({}));
  private readonly rsSyncApplyStop = new FailPoint(() => ({}));
  // mongod's journal_flusher.cpp: the journal flusher stops flushing while it is on (with --dbpath;
  // the durable optime stands still, so j:true and journaled majority writes wait).
  private readonly pauseJournalFlusherThread = new FailPoint(() => ({}));
  private readonly byName: ReadonlyMap<string, FailPoint<unknown>> = new Map<string, FailPoint<unknown>>([
    ['failCommand', this.failCommand],
    ['failGetMoreAfterCursorCheckout', this.failGetMoreAfterCursorCheckout],
    ['onPrimaryTransactionalWrite', this.onPrimaryTransactionalWrite],
    ['pauseJournalFlusherThread', this.pauseJournalFlusherThread],
    ['rsSyncApplyStop', this.rsSyncApplyStop],
    ['stopReplProducer', this.stopReplProducer],
  ]);

  /** Whether a replication fail point is on now (each check counts as one hit, as mongod's shouldFail). */
  replicationStopped(name: 'stopReplProducer' | 'rsSyncApplyStop' | 'pauseJournalFlusherThread'): boolean {
    const failPoint =
      name === 'stopReplProducer'
        ? this.stopReplProducer
        : name === 'rsSyncApplyStop'
          ? this.rsSyncApplyStop
          : this.pauseJournalFlusherThread;
    return failPoint.evaluate() !== undefined;
  }

  /** configureFailPoint: replaces the fail point's mode and data; returns how often it fired. */
  configure(name: unknown, mode: unknown, data: unknown): number {
    const failPoint = typeof name === 'string' ? this.byName.get(name) : undefined;
    if (!failPoint) throw new CommandError('BadValue', `Cannot find failpoint: ${String(name)}`);
    return failPoint.configure(mode, data);
  }

  /**
   * Evaluates failCommand for a command about to run. A command it does not match leaves
   * times/skip untouched, as on mongod; `configureFailPoint` itself is never failed.
   */
  failCommandFor(probe: CommandProbe): FailCommandAction | undefined {
    if (probe.names.includes('configureFailPoint')) return undefined;
    const data = this.failCommand.evaluate(
      (d) =>
        (!probe.internalClient || d.failInternalCommands) &&
        d.failCommands.some((name) => probe.names.includes(name)) &&
        matchesClient(d, probe),
    );
    return data?.action;
  }

  /**
   * Evaluates failGetMoreAfterCursorCheckout once a getMore holds its cursor (`namespace` is the
   * cursor's); throws the error it injects.
   */
  checkGetMoreAfterCheckout(probe: Omit<CommandProbe, 'names'>): void {
    const data = this.failGetMoreAfterCursorCheckout.evaluate((d) => matchesClient(d, probe));
    if (data) throw getMoreFailure(data.errorCode);
  }

  /** Evaluates onPrimaryTransactionalWrite where a retryable write commits (outside transactions). */
  transactionalWriteAction(): TransactionalWriteAction | undefined {
    return this.onPrimaryTransactionalWrite.evaluate();
  }

  /** The current state, for tests and diagnostics. */
  describe(): Document {
    return Object.fromEntries([...this.byName].map(([name, fp]) => [name, { mode: fp.modeKind }]));
  }
}
