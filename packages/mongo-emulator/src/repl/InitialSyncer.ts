// Initial sync (mongod's initial_syncer.cpp and collection_cloner.cpp, in short): note the
// source's last entry, clone every collection with its options and indexes, start our oplog at
// that entry, then apply what the source wrote during the clone in idempotent mode.
// Retryable-write records are not cloned.
import type { Timestamp } from 'bson';
import type { Document } from '../engine/types.ts';
import type { PeerCommander } from './PeerClient.ts';
import type { ReplHost } from './replHost.ts';

/** Documents per batch a collection's clone reads. */
const CLONE_BATCH_DOCS = 10_000;
/** The replay of what the source wrote during the clone asks for it in one batch this large. */
const REPLAY_BATCH_ENTRIES = 1_000_000;

export interface InitialSyncHost {
  readonly server: ReplHost;
  electionTimeoutMs(): number;
  applyBatch(batch: Document[], signal: AbortSignal, idempotent: boolean): Promise<void>;
  /** The member holds the set's data from here on (its oplog starts at the source's entry). */
  markHasData(): void;
  /** The sync is done: persist, become SECONDARY, report the position. */
  finished(): void;
}

export class InitialSyncer {
  readonly #host: InitialSyncHost;

  constructor(host: InitialSyncHost) {
    this.#host = host;
  }

  async run(source: PeerCommander, signal: AbortSignal): Promise<void> {
    const server = this.#host.server;
    const timeoutMs = this.#host.electionTimeoutMs();
    const latest = await source.command(
      'local',
      { find: 'oplog.rs', sort: { $natural: -1 }, limit: 1, singleBatch: true },
      timeoutMs,
    );
    const begin = ((latest.cursor as Document | undefined)?.firstBatch as Document[] | undefined)?.[0];
    if (!begin) throw new Error('the sync source has no oplog yet');
    server.logger.info(`repl: ${server.address} initial sync from ${source.address} at ${String(begin.ts)}`);
    server.changeStreams.quiet(() => {
      server.transactions.abandonSessions('all');
      server.sessions.clear();
      for (const db of server.catalog.listDatabaseNames()) server.catalog.dropDatabase(db);
    });
    await this.#cloneDatabases(source, signal);
    if (signal.aborted) return;
    server.changeStreams.resetOplog(begin);
    server.clock.advanceTo(begin.ts as Timestamp);
    this.#host.markHasData();
    // Replays what the source wrote while we cloned: the clone may already hold some of it.
    const reply = await source.command(
      'local',
      { find: 'oplog.rs', filter: { ts: { $gt: begin.ts } }, batchSize: REPLAY_BATCH_ENTRIES },
      timeoutMs,
    );
    await this.#host.applyBatch(((reply.cursor as Document).firstBatch as Document[]) ?? [], signal, true);
    if (signal.aborted) return;
    this.#host.finished();
  }

  async #cloneDatabases(source: PeerCommander, signal: AbortSignal): Promise<void> {
    const timeoutMs = this.#host.electionTimeoutMs();
    const dbs = await source.command('admin', { listDatabases: 1, nameOnly: true }, timeoutMs);
    for (const { name } of (dbs.databases as Document[]) ?? []) {
      if (name === 'local' || signal.aborted) continue;
      const listed = await source.command(String(name), { listCollections: 1 }, timeoutMs);
      const infos = ((listed.cursor as Document).firstBatch as Document[]).filter(
        (c) => !String(c.name).startsWith('system.'),
      );
      for (const info of infos) await this.#cloneCollection(source, String(name), info);
    }
  }

  /** One collection (collection_cloner.cpp): its options and indexes, then its documents in batches. */
  async #cloneCollection(source: PeerCommander, db: string, info: Document): Promise<void> {
    const server = this.#host.server;
    const timeoutMs = this.#host.electionTimeoutMs();
    const name = String(info.name);
    const options = { ...((info.options as Document | undefined) ?? {}) };
    if (info.type === 'view') {
      server.changeStreams.quiet(() =>
        server.catalog.createView(db, name, {
          viewOn: String(options.viewOn),
          pipeline: (options.pipeline as Document[]) ?? [],
        } as never),
      );
      return;
    }
    const indexes = await source.command(db, { listIndexes: name }, timeoutMs);
    const specs = ((indexes.cursor as Document).firstBatch as Document[])
      .filter((spec) => spec.name !== '_id_')
      .map(({ v: _v, ...spec }) => spec);
    server.changeStreams.quiet(() => {
      const collection = server.catalog.createCollection(db, name, options);
      if (specs.length > 0) collection.createIndexes(specs as never[]);
    });
    let reply = await source.command(db, { find: name, batchSize: CLONE_BATCH_DOCS }, timeoutMs);
    for (;;) {
      const cursor = reply.cursor as Document;
      const docs = (cursor.firstBatch ?? cursor.nextBatch) as Document[];
      server.changeStreams.quiet(() => {
        const collection = server.catalog.getOrCreateCollection(db, name);
        collection.withoutValidation(() => {
          for (const doc of docs) collection.insertOne(doc);
        });
      });
      if (cursor.id === 0n) return;
      reply = await source.command(
        db,
        { getMore: cursor.id, collection: name, batchSize: CLONE_BATCH_DOCS },
        timeoutMs,
      );
    }
  }
}
