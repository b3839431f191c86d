// A primary stepping down: for a newer term, a lost majority or a new configuration, and on
// replSetStepDown, after the wait for a caught-up electable secondary, with the election handed
// off to it (mongod's replication_coordinator_impl.cpp, stepDown and _performElectionHandoff);
// replSetStepUp, the other end of the hand-off.
import { CommandError } from '../errors.ts';
import { MemberState } from './memberState.ts';
import type { TransactionCoordinator } from '../txn/TransactionCoordinator.ts';
import type { OplogFetcher } from './OplogFetcher.ts';
import type { OpTime } from './opTime.ts';
import type { PeerPool } from './PeerClient.ts';
import type { ReplicationWaits } from './replicationWaits.ts';
import type { TopologyCoordinator } from './TopologyCoordinator.ts';

/** replSetStepDown's default secondaryCatchUpPeriodSecs. */
export const DEFAULT_CATCH_UP_SECS = 10;
/** replSetStepDown's default `secs`: how long the old primary may not stand again. */
export const DEFAULT_STEP_DOWN_SECS = 60;

export interface StepDownOptions {
  secs: number;
  catchUpSecs: number;
  force: boolean;
}

/** What the step-down reads of the member and acts through (ReplCoordinator.ts). */
export interface StepDownHost {
  readonly member: {
    readonly isPrimary: boolean;
    readonly state: number;
    readonly lastApplied: OpTime;
    readonly electionTimeoutMs: number;
    readonly address: string;
  };
  readonly topology: TopologyCoordinator;
  readonly waits: ReplicationWaits;
  readonly peers: PeerPool;
  readonly logger: { info(message: string): void };
  readonly transactions: TransactionCoordinator;
  readonly fetcher: OplogFetcher;
  /** The coordinator's state change to SECONDARY. */
  becomeSecondary(): void;
}

export class StepDown {
  readonly #host: StepDownHost;

  constructor(host: StepDownHost) {
    this.#host = host;
  }

  /**
   * Leaves PRIMARY: open transactions are aborted, write-concern waits end with PrimarySteppedDown,
   * and the member follows the new primary (replication_coordinator_impl.cpp, stepDown and
   * _updateMemberStateFromTopologyCoordinator).
   */
  leavePrimary(why: string): void {
    const host = this.#host;
    if (!host.member.isPrimary) return;
    host.logger.info(`repl: ${host.member.address} steps down: ${why}`);
    host.becomeSecondary();
    host.transactions.abandonSessions('all');
    host.topology.postponeElection();
    host.waits.endAll('steppedDown');
    host.fetcher.start();
  }

  /**
   * replSetStepDown: waits up to `secondaryCatchUpPeriodSecs` for an electable secondary to have
   * caught up (unless `force`), then steps down and does not stand for `secs`.
   */
  async onRequest(options: StepDownOptions, signals: AbortSignal[]): Promise<void> {
    const { member, topology, waits } = this.#host;
    if (!member.isPrimary) throw new CommandError('NotWritablePrimary', "not primary so can't step down");
    if (options.catchUpSecs > options.secs)
      throw new CommandError('BadValue', 'stepdown period must be longer than secondaryCatchUpPeriodSecs');
    const target = member.lastApplied;
    const caughtUp = () => topology.caughtUpElectable(target) !== undefined;
    if (!caughtUp()) {
      const outcome = await waits.waitUntil(caughtUp, options.catchUpSecs * 1000, signals);
      if (outcome !== 'ready' && !options.force) {
        throw new CommandError(
          'ExceededTimeLimit',
          'No electable secondaries caught up as of ' +
            new Date().toISOString() +
            '. Please use the replSetStepDown command with the argument {force: true} to force node to step down.',
        );
      }
    }
    if (!member.isPrimary) return;
    topology.noElectionFor(options.secs * 1000);
    this.leavePrimary('replSetStepDown');
    // An electable, caught-up secondary is asked to stand at once (mongod's stepdown hands off the
    // same way: replSetStepUp to the most caught-up electable member, _performElectionHandoff).
    const handoff = topology.caughtUpElectable(target);
    if (handoff)
      void this.#host.peers
        .get(handoff.host)
        .command('admin', { replSetStepUp: 1, skipDryRun: true }, member.electionTimeoutMs)
        .catch(() => undefined);
  }

  /** replSetStepUp: stand for election now (the step-down hand-off, or a test's request). */
  async stepUp(): Promise<void> {
    const { member, topology } = this.#host;
    if (member.isPrimary) return;
    if (member.state !== MemberState.SECONDARY)
      throw new CommandError('NotSecondary', 'This node is not in a state to step up');
    await topology.standForElection('stepUp');
    if (!member.isPrimary) throw new CommandError('CommandFailed', 'Election failed.');
  }
}
