// The parts of the server a replica-set member drives (ServerState's, without importing it), and
// the member's own options.
import type { Catalog } from '../engine/catalog.ts';
import type { ChangeStreams } from '../changes/ChangeStreams.ts';
import type { FailPointRegistry } from '../failpoints/FailPointRegistry.ts';
import type { ClusterClock } from '../session/ClusterClock.ts';
import type { SessionRegistry } from '../session/SessionRegistry.ts';
import type { Storage } from '../storage/Storage.ts';
import type { TransactionCoordinator } from '../txn/TransactionCoordinator.ts';
import type { ReplTimingOptions } from './replSetConfig.ts';

export interface ReplHost {
  readonly address: string;
  readonly setName: string;
  readonly catalog: Catalog;
  readonly changeStreams: ChangeStreams;
  readonly sessions: SessionRegistry;
  readonly transactions: TransactionCoordinator;
  readonly failPoints: FailPointRegistry;
  readonly clock: ClusterClock;
  readonly logger: { info(message: string): void; warn(message: string): void };
  readonly stopSignal: AbortSignal;
  /** Closes every client connection (rollback does, as mongod's). */
  closeClientConnections(): void;
  /** With --dbpath: the journal (durable optime, flushes) and where config, term and vote are kept. */
  readonly storage?: Storage;
}

export interface ReplOptions extends ReplTimingOptions {
  /** Where rolled-back documents are written (mongod's <dbpath>/rollback). */
  rollbackDir: string;
}
