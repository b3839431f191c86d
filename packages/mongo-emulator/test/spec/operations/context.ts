// What every operation handler receives: the test's entities and runner services, and the
// operation's arguments with typed accessors.
import type { ClientSession, MongoClient } from 'mongodb';
import { commonOptions, plain } from '../commonOptions.ts';
import type { EntityMap } from '../entities.ts';
import type { Matcher } from '../matcher.ts';

export interface Operation {
  name: string;
  object: string;
  arguments?: Record<string, unknown>;
  expectResult?: unknown;
  expectError?: Record<string, unknown>;
  saveResultAsEntity?: string;
  ignoreResultAndError?: boolean;
}

export interface TestContext {
  entities: EntityMap;
  /** The runner's own client: initialData, outcome, assertCollectionExists... */
  internalClient: MongoClient;
  matcher: Matcher;
  /** Fail points to switch off after the test, on the client that set them. */
  failPoints: Array<{ client: MongoClient; name: string }>;
  /** Whether the test started a transaction, so open ones are killed afterwards. */
  startedTransaction: boolean;
  /** Runs nested operations (withTransaction callbacks) with the usual assertions. */
  runOperations(operations: Operation[], options: { propagateErrors: boolean }): Promise<void>;
}

/** What an operation returned, and whether it is a list of root-level documents (a cursor). */
export interface OperationResult {
  value: unknown;
  documentList?: boolean;
}

// Arguments that are documents sent to the server as-is: their BSON number types must survive.
const DOCUMENT_ARGUMENTS = new Set([
  'filter',
  'update',
  'replacement',
  'document',
  'documents',
  'pipeline',
  'arrayFilters',
  'let',
  'command',
  'validator',
]);

export class Arguments {
  private readonly remaining: Map<string, unknown>;

  constructor(
    raw: Record<string, unknown> | undefined,
    private readonly entities: EntityMap,
  ) {
    this.remaining = new Map(Object.entries(raw ?? {}));
  }

  /** A required argument, removed from the ones left for driver options. */
  required<T = unknown>(name: string): T {
    if (!this.remaining.has(name)) throw new Error(`missing required argument ${name}`);
    return this.optional<T>(name) as T;
  }

  optional<T = unknown>(name: string): T | undefined {
    const value = this.remaining.get(name);
    this.remaining.delete(name);
    return (DOCUMENT_ARGUMENTS.has(name) ? value : plain(value)) as T | undefined;
  }

  session(): ClientSession | undefined {
    const name = this.remaining.get('session');
    this.remaining.delete('session');
    return name === undefined ? undefined : this.entities.get(String(name), 'session').session;
  }

  /** Everything not taken yet, as driver options (session resolved, concerns converted). */
  options(): Record<string, unknown> {
    const session = this.session();
    const rest: Record<string, unknown> = {};
    for (const [key, value] of this.remaining) rest[key] = DOCUMENT_ARGUMENTS.has(key) ? value : plain(value);
    this.remaining.clear();
    const options = commonOptions(rest);
    if (session !== undefined) options.session = session;
    return options;
  }
}

export type OperationHandler<T> = (target: T, args: Arguments, context: TestContext) => Promise<OperationResult>;
