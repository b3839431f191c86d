// @module-tag processes
// D3: a data directory is the emulator's or it is refused. A torn last journal record (what a
// crash during a write leaves) is truncated and logged; a damaged checkpoint or journal, or a
// directory of something else, is refused with exit code 100 and the file named, never opened as
// empty; a second process on a directory in use gets DBPathInUse (exit 100); a killed process's
// lock never blocks its restart.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT_MS, runToExit, startNode, type NodeProcess } from './nodeProcess.ts';

let dir: string;
const running: NodeProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-d3-'));
});

afterEach(async () => {
  for (const node of running.splice(0)) await node.kill();
  rmSync(dir, { recursive: true, force: true });
});

async function start(args: string[] = []): Promise<NodeProcess> {
  const node = await startNode(dir, args);
  running.push(node);
  return node;
}

/** Writes `n` documents at j:true (each in the journal when acknowledged), then SIGKILLs the process. */
async function writeThenKill(n: number): Promise<void> {
  const node = await start();
  const client = new MongoClient(node.uri);
  try {
    const coll = client.db('d3').collection<{ _id: number }>('docs');
    for (let i = 0; i < n; i++) await coll.insertOne({ _id: i }, { writeConcern: { w: 1, j: true } });
  } finally {
    await client.close();
  }
  await node.kill('SIGKILL');
}

async function count(node: NodeProcess): Promise<number> {
  const client = new MongoClient(node.uri);
  try {
    return await client.db('d3').collection('docs').countDocuments();
  } finally {
    await client.close();
  }
}

function journalFiles(): string[] {
  return readdirSync(join(dir, 'journal'))
    .filter((f) => readFileSync(join(dir, 'journal', f)).length > 0)
    .map((f) => join(dir, 'journal', f));
}

describe('a data directory (--dbpath)', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('refuses a second process with DBPathInUse and exit 100; a killed process never blocks its restart', async () => {
    const first = await start();
    const second = await runToExit(['--port', '0', '--dbpath', dir]);
    expect(second.code).toBe(100);
    expect(second.output).toContain('DBPathInUse');
    expect(second.output).toContain(join(dir, 'mongod.lock'));
    await first.kill('SIGKILL');
    const again = await start();
    expect(again.output()).toContain('ready on');
  });

  it('truncates a torn last journal record, logs it, and keeps every acknowledged write', async () => {
    await writeThenKill(20);
    const [last] = journalFiles().slice(-1);
    // A record cut short: its header promises 200 bytes, 10 made it to disk.
    const torn = Buffer.alloc(18);
    torn.writeUInt32LE(200, 0);
    appendFileSync(last!, torn);
    const node = await start();
    expect(node.output()).toMatch(/torn last record at byte \d+ \(18 bytes, a crash during a write\) was truncated/);
    expect(await count(node)).toBe(20);
  });

  it('refuses a damaged record in the middle of the journal, naming the file', async () => {
    await writeThenKill(20);
    const [file] = journalFiles();
    const bytes = readFileSync(file!);
    bytes[12] = bytes[12]! ^ 0xff; // inside the first record's payload
    writeFileSync(file!, bytes);
    const refused = await runToExit(['--port', '0', '--dbpath', dir]);
    expect(refused.code).toBe(100);
    expect(refused.output).toContain(`${file} is damaged: the record at byte 0 fails its checksum`);
  });

  it('refuses a garbage checkpoint, naming it, rather than opening the directory as empty', async () => {
    await writeThenKill(5);
    writeFileSync(join(dir, 'checkpoint.bson'), Buffer.from('not a checkpoint at all, just garbage bytes'));
    const refused = await runToExit(['--port', '0', '--dbpath', dir]);
    expect(refused.code).toBe(100);
    expect(refused.output).toContain(`DataDirectoryDamaged: ${join(dir, 'checkpoint.bson')} is damaged`);
  });

  it("refuses a foreign directory (another program's files, a mongod's WiredTiger files), naming a file", async () => {
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const other = await runToExit(['--port', '0', '--dbpath', dir]);
    expect(other.code).toBe(100);
    expect(other.output).toContain(`${dir} is not an emulator data directory: it holds ${join(dir, 'notes.txt')}`);
    rmSync(join(dir, 'notes.txt'));
    writeFileSync(join(dir, 'WiredTiger'), 'WiredTiger\nWiredTiger 11.2.0');
    const mongod = await runToExit(['--port', '0', '--dbpath', dir]);
    expect(mongod.code).toBe(100);
    expect(mongod.output).toContain('a mongod data directory (WiredTiger files)');
    expect(mongod.output).toContain(join(dir, 'WiredTiger'));
  });

  it('resumes a change stream after a SIGKILL and restart from a token taken before it', async () => {
    const node = await start();
    const client = new MongoClient(node.uri);
    let token: unknown;
    try {
      const coll = client.db('d3').collection<{ _id: number }>('docs');
      const stream = coll.watch([], { maxAwaitTimeMS: 100 });
      await stream.tryNext();
      for (let i = 0; i < 3; i++) await coll.insertOne({ _id: i }, { writeConcern: { w: 1, journal: true } });
      let first = await stream.tryNext();
      while (!first) first = await stream.tryNext();
      token = first._id;
      await stream.close();
    } finally {
      await client.close();
    }
    await node.kill('SIGKILL');
    const again = await start();
    const resumed = new MongoClient(again.uri);
    try {
      const stream = resumed
        .db('d3')
        .collection<{ _id: number }>('docs')
        .watch([], { resumeAfter: token, maxAwaitTimeMS: 100 });
      const seen: unknown[] = [];
      while (seen.length < 2) {
        const event = await stream.tryNext();
        if (event?.operationType === 'insert') seen.push(event.documentKey._id);
      }
      expect(seen).toEqual([1, 2]);
      await stream.close();
    } finally {
      await resumed.close();
    }
  });

  it('comes back from a clean stop with its data and indexes, from the checkpoint of the stop', async () => {
    const node = await start();
    const client = new MongoClient(node.uri);
    try {
      const coll = client.db('d3').collection<{ _id: number; k: number }>('docs');
      await coll.createIndex({ k: 1 }, { unique: true });
      await coll.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i, k: i })));
    } finally {
      await client.close();
    }
    await node.kill('SIGTERM');
    expect(journalFiles()).toEqual([]);
    const again = await start();
    expect(await count(again)).toBe(50);
    const check = new MongoClient(again.uri);
    try {
      await expect(
        check
          .db('d3')
          .collection('docs')
          .insertOne({ _id: 99, k: 1 } as never),
      ).rejects.toMatchObject({ code: 11000 });
    } finally {
      await check.close();
    }
  });
});
