// Rollback (mongod's rollback_impl.cpp, in short): a member whose newest entries the set never
// majority-committed finds the last entry it shares with its sync source, saves the documents its
// own later entries wrote under the rollback directory as <db>.<coll>/removed.<time>.bson
// (mongod's rollback files) and closes its client connections. Where mongod then recovers to its
// stable timestamp and replays, the emulator re-syncs from the source (an initial sync), which
// brings its data back to the common point and beyond. A member whose last entry the source no
// longer holds at all is too stale for either and syncs anew.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'bson';
import type { Document } from '../engine/types.ts';
import { MemberState } from './memberState.ts';
import type { PeerCommander } from './PeerClient.ts';
import type { ReplHost } from './replHost.ts';

/** The scan of the source's oplog for the common point asks for it in one batch this large. */
const COMMON_POINT_SCAN_BATCH_ENTRIES = 1_000_000;

export interface RollbackHost {
  readonly server: ReplHost;
  readonly rollbackDir: string;
  electionTimeoutMs(): number;
  setState(state: number): void;
  initialSync(source: PeerCommander, signal: AbortSignal): Promise<void>;
}

export class Rollback {
  readonly #host: RollbackHost;
  #count = 0;

  constructor(host: RollbackHost) {
    this.#host = host;
  }

  /** How many rollbacks this member went through (serverStatus repl.rbid). */
  get count(): number {
    return this.#count;
  }

  /** Our last entry is not the source's: roll back to the common point (or, too stale, find none), then re-sync. */
  async onDivergence(source: PeerCommander, signal: AbortSignal): Promise<void> {
    const server = this.#host.server;
    const ours = server.changeStreams.oplog.records().map((r) => r.doc);
    const common = await this.#commonPoint(source, ours);
    if (common < 0) {
      server.logger.warn(`repl: ${server.address} is too stale to sync from ${source.address}: a new initial sync`);
    } else {
      const rolledBack = ours.slice(common + 1);
      this.#host.setState(MemberState.ROLLBACK);
      server.closeClientConnections();
      this.#writeRollbackFiles(rolledBack);
      server.logger.warn(
        `repl: ${server.address} rolls back ${rolledBack.length} entries after ${String(ours[common]!.ts)} (common point with ${source.address})`,
      );
    }
    if (signal.aborted) return;
    this.#host.setState(MemberState.STARTUP2);
    await this.#host.initialSync(source, signal);
  }

  /** The index in `ours` of the newest entry the source holds too (-1: none). */
  async #commonPoint(source: PeerCommander, ours: Document[]): Promise<number> {
    const filter = { ts: { $gte: ours[0]!.ts } };
    const reply = await source.command(
      'local',
      { find: 'oplog.rs', filter, projection: { ts: 1, t: 1 }, batchSize: COMMON_POINT_SCAN_BATCH_ENTRIES },
      this.#host.electionTimeoutMs(),
    );
    const theirs = new Set(
      (((reply.cursor as Document).firstBatch as Document[]) ?? []).map((d) => `${String(d.ts)}/${String(d.t)}`),
    );
    let common = ours.length - 1;
    while (common >= 0 && !theirs.has(`${String(ours[common]!.ts)}/${String(ours[common]!.t)}`)) common -= 1;
    return common;
  }

  #writeRollbackFiles(entries: Document[]): void {
    const byNs = new Map<string, Document[]>();
    const visit = (op: Document) => {
      if (op.op === 'c' && Array.isArray((op.o as Document).applyOps)) {
        for (const inner of (op.o as Document).applyOps as Document[]) visit(inner);
        return;
      }
      if (op.op !== 'i' && op.op !== 'u' && op.op !== 'd') return;
      const ns = String(op.ns);
      const saved = this.#documentToSave(ns, op);
      if (!saved) return;
      const list = byNs.get(ns) ?? [];
      if (!list.some((d) => JSON.stringify(d._id) === JSON.stringify(saved._id))) list.push(saved);
      byNs.set(ns, list);
    };
    for (const entry of entries) visit(entry);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    for (const [ns, docs] of byNs) {
      const dir = join(this.#host.rollbackDir, ns);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `removed.${stamp}.bson`), Buffer.concat(docs.map((d) => serialize(d))));
    }
    this.#count += 1;
  }

  /** The document a rolled-back write touched, as this member holds it now. */
  #documentToSave(ns: string, op: Document): Document | undefined {
    const dot = ns.indexOf('.');
    const key = (op.o2 as Document | undefined) ?? { _id: (op.o as Document)._id };
    const current = this.#host.server.catalog
      .getCollection(ns.slice(0, dot), ns.slice(dot + 1))
      ?.find(key, { limit: 1 })[0];
    // A delete's document is gone here too; mongod saves what it can refetch, we save its key.
    return current ?? (op.op === 'd' ? (op.o as Document) : undefined);
  }
}
