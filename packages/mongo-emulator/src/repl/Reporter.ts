// replSetUpdatePosition from this member to its sync source and to the primary: its applied and
// durable optimes, from which the primary moves the commit point (mongod's reporter.cpp). Sent
// after each applied batch, each journal flush and the end of an initial sync; a lost report is
// not retried, the next one carries newer optimes.
import type { OpTime } from './opTime.ts';
import type { PeerPool } from './PeerClient.ts';
import type { ReplSetConfig } from './replSetConfig.ts';

/** What the reporter reads of the member (ReplCoordinator.ts) and sends through. */
export interface ReporterHost {
  readonly member: {
    readonly config: Readonly<ReplSetConfig> | undefined;
    readonly selfIndex: number;
    readonly lastApplied: OpTime;
    readonly lastAppliedWall: Date;
    readonly lastDurable: OpTime;
    readonly syncSource: string | undefined;
    readonly electionTimeoutMs: number;
  };
  /** The primary this member follows (not itself). */
  primaryAddress(): string | undefined;
  readonly peers: PeerPool;
}

export class Reporter {
  readonly #host: ReporterHost;

  constructor(host: ReporterHost) {
    this.#host = host;
  }

  /** Our position, to the sync source and the primary (once if they are the same member). */
  report(): void {
    const { member, peers } = this.#host;
    const config = member.config;
    if (!config || member.selfIndex < 0) return;
    const self = config.members[member.selfIndex]!;
    const request = {
      replSetUpdatePosition: 1,
      optimes: [
        {
          appliedOpTime: member.lastApplied,
          appliedWallTime: member.lastAppliedWall,
          durableOpTime: member.lastDurable,
          durableWallTime: member.lastAppliedWall,
          memberId: self._id,
          cfgver: config.version,
        },
      ],
    };
    const targets = new Set([member.syncSource, this.#host.primaryAddress()].filter((h): h is string => !!h));
    for (const host of targets)
      void peers
        .get(host)
        .command('admin', request, member.electionTimeoutMs)
        .catch(() => undefined);
  }
}
