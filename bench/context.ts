// What every scenario gets: the HTTP pool, one API key per role it uses, the run's id prefix,
// the size mode, and the book of what the API answered, which the invariants compare with the
// database after the run.
import type { Db } from 'mongodb';
import type { GraphqlAnswer, GraphqlPool } from './graphqlPool.ts';
import type { RawDriver } from './rawDriver.ts';

export type Mode = 'full' | 'quick';

export interface BenchKeys {
  service: string;
  worker: string;
  dashboard: string;
}

/** What clients were told, so the database can be checked against it afterwards. */
export interface Book {
  /** Minor units the API answered as deposited (DepositSuccess). */
  depositedMinor: number;
  /** Minor units the API answered as withdrawn (WithdrawSuccess). */
  withdrawnMinor: number;
  /** Work items the API answered as created, by id. */
  createdItemIds: Set<string>;
  /** Every CompleteSuccess answer, by item id (a repeat would be a double completion). */
  completedItemIds: string[];
  /** The kinds the bench created work items under. */
  workKinds: Set<string>;
}

export interface BenchContext {
  pool: GraphqlPool;
  keys: BenchKeys;
  /** Prefix for every id and key the run makes, so runs never collide. */
  runId: string;
  mode: Mode;
  book: Book;
  /**
   * The API's database, for untimed bulk set-up that the API would take too long to make (e.g. a
   * million work items); scenarios that seed ledgers of their own use a database of their own on its client.
   */
  db: Db;
  /** The plain-driver baseline on the same engine (bench/rawDriver.ts). */
  raw: RawDriver;
  /** The engine's URI, for scenarios that start their own clients or processes. */
  mongoUri: string;
  app: {
    wsUrl: string;
    /** Subscribers attached to the API's work-item feed. */
    subscriberCount(): number;
  };
}

export function emptyBook(): Book {
  return {
    depositedMinor: 0,
    withdrawnMinor: 0,
    createdItemIds: new Set(),
    completedItemIds: [],
    workKinds: new Set(),
  };
}

/** One count for a full run, another for `--quick`. */
export function sized(mode: Mode, counts: { full: number; quick: number }): number {
  return counts[mode];
}

/** The answer's outcome as one label: the union member's __typename, else the error. */
export function outcomeLabel(answer: GraphqlAnswer, field: string): string {
  if (answer.errors.length > 0) return `error:${answer.errors[0]?.extensions?.code ?? 'UNKNOWN'}`;
  if (answer.status !== 200) return `http:${answer.status}`;
  return (answer.data?.[field] as { __typename?: string } | undefined)?.__typename ?? 'error:NO_DATA';
}
