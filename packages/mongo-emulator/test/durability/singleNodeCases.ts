// D1 on one node: writes acknowledged at j:true or w:majority (the implicit default) survive a
// SIGKILL of the process in the middle of the stream; at w:1, j:false only the writes of the last
// journal commit interval may be missing. Registered by singleNode.test.ts (npm test: j:true and
// w:majority) and test/faults/emulatorDurability.faults.ts (all, with checkpoints mid-stream and
// the w:1, j:false bound, which need seconds of writing each).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type WriteConcernSettings } from 'mongodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT_MS, startNode, type NodeProcess } from './nodeProcess.ts';

const WRITERS = 8;
/** Acknowledged writes before the kill: enough that the stream is in full flow when it comes. */
const ACKS_BEFORE_KILL = 200;

let dir: string;
const running: NodeProcess[] = [];

function directories(): void {
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'emulator-d1-'));
  });

  afterEach(async () => {
    for (const node of running.splice(0)) await node.kill();
    rmSync(dir, { recursive: true, force: true });
  });
}

interface Ack {
  id: string;
  atMs: number;
}

/**
 * WRITERS connections insert at `writeConcern` until ACKS_BEFORE_KILL are acknowledged, then the
 * process is SIGKILLed while they still write. Returns every acknowledgement and the kill time.
 */
async function writeThroughKill(
  node: NodeProcess,
  writeConcern: WriteConcernSettings,
  minWritingMs = 0,
): Promise<{ acks: Ack[]; killedAtMs: number }> {
  const acks: Ack[] = [];
  const startedMs = performance.now();
  let killedAtMs = 0;
  let killing: Promise<void> | undefined;
  const clients = Array.from(
    { length: WRITERS },
    () => new MongoClient(node.uri, { maxPoolSize: 1, retryWrites: false, serverSelectionTimeoutMS: 2000 }),
  );
  const writer = async (w: number) => {
    const coll = clients[w]!.db('d1').collection<{ _id: string }>('docs');
    for (let i = 0; ; i++) {
      const id = `${w}-${i}`;
      try {
        await coll.insertOne({ _id: id }, { writeConcern });
      } catch {
        return; // the process is gone
      }
      acks.push({ id, atMs: performance.now() });
      if (acks.length >= ACKS_BEFORE_KILL && performance.now() - startedMs >= minWritingMs && !killing) {
        killedAtMs = performance.now();
        killing = node.kill('SIGKILL');
      }
    }
  };
  await Promise.all(clients.map((_, w) => writer(w)));
  await killing;
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  return { acks, killedAtMs };
}

async function presentIds(node: NodeProcess): Promise<Set<string>> {
  const client = new MongoClient(node.uri);
  try {
    const docs = await client.db('d1').collection<{ _id: string }>('docs').find().toArray();
    return new Set(docs.map((d) => d._id));
  } finally {
    await client.close();
  }
}

const ACKNOWLEDGED_CASES = [
  ['j: true', { w: 1, journal: true }, [], 0],
  ['w: majority', { w: 'majority' }, [], 0],
  // Checkpoints taken while the writes go on, the kill landing between or during them.
  ['j: true, with a checkpoint every second', { w: 1, journal: true }, ['--syncdelay', '1'], 3_000],
] as const;

/** `all`: every case (test:faults); otherwise j:true and w:majority only (npm test). */
export function singleNodeD1(all: boolean): void {
  describe('D1 on one node (--dbpath)', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
    directories();
    it.each(all ? ACKNOWLEDGED_CASES : ACKNOWLEDGED_CASES.slice(0, 2))(
      'keeps every write acknowledged at %s through a SIGKILL mid-stream',
      async (_, writeConcern, args, writingMs) => {
        const node = await startNode(dir, [...args]);
        const { acks } = await writeThroughKill(node, writeConcern as WriteConcernSettings, writingMs);
        expect(acks.length).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
        const restarted = await startNode(dir);
        running.push(restarted);
        const present = await presentIds(restarted);
        const lost = acks.filter((a) => !present.has(a.id));
        expect(lost).toEqual([]);
      },
    );

    if (all) {
      it('at w: 1, j: false loses at most the writes of the last commit interval', async () => {
        // A commit interval long enough that the writes it may lose are told apart from a broken flusher.
        const intervalMs = 200;
        const node = await startNode(dir, ['--journalCommitInterval', String(intervalMs)]);
        const { acks, killedAtMs } = await writeThroughKill(node, { w: 1, journal: false }, 2_000);
        const restarted = await startNode(dir);
        running.push(restarted);
        const present = await presentIds(restarted);
        const lost = acks.filter((a) => !present.has(a.id));
        // Whatever was acknowledged two intervals (and a flush's own time) before the kill was flushed.
        const bound = killedAtMs - 2 * intervalMs - 250;
        expect(lost.filter((a) => a.atMs < bound)).toEqual([]);
        // The writes before the kill were mostly acknowledged long before it: the check is not empty.
        expect(acks.filter((a) => a.atMs < bound).length).toBeGreaterThan(0);
      });
    }
  });
}
