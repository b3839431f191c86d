// Proves the wire layer at the byte level: the legacy OP_QUERY handshake, OP_MSG document
// sequences and checksums, moreToCome, and the message-size limit checked from the header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.ts';
import { crc32c } from '../../src/wire/crc32c.ts';
import { OP_MSG, OP_REPLY, opMsg, opQuery, RawConnection } from './rawWire.ts';

let emulator: RunningEmulator;
const open: RawConnection[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  for (const connection of open) connection.close();
  await emulator.stop();
});

async function connection(): Promise<RawConnection> {
  const c = await RawConnection.open(emulator.port);
  open.push(c);
  return c;
}

async function stillServes(): Promise<boolean> {
  const c = await connection();
  c.send(opMsg({ ping: 1, $db: 'admin' }));
  return (await c.reply())?.document.ok === 1;
}

describe('wire protocol', () => {
  it('answers a legacy isMaster over OP_QUERY with OP_REPLY', async () => {
    const c = await connection();
    c.send(opQuery('admin.$cmd', { isMaster: 1, helloOk: true, client: { application: { name: 'raw' } } }));
    const reply = await c.reply();
    expect(reply?.opCode).toBe(OP_REPLY);
    expect(reply?.document).toMatchObject({ ok: 1, ismaster: true, helloOk: true, maxWireVersion: 21 });
  });

  it('refuses other OP_QUERY commands as mongod 7 does', async () => {
    const c = await connection();
    c.send(opQuery('test.$cmd', { find: 'c' }));
    expect((await c.reply())?.document).toMatchObject({ ok: 0, code: 352, codeName: 'UnsupportedOpQueryCommand' });
  });

  it('merges kind-1 document sequences into the command', async () => {
    const c = await connection();
    c.send(opMsg({ insert: 'seq', $db: 'wire' }, { documents: [{ _id: 1 }, { _id: 2 }, { _id: 3 }] }));
    expect((await c.reply())?.document).toMatchObject({ ok: 1, n: 3 });
    c.send(opMsg({ count: 'seq', $db: 'wire' }));
    expect((await c.reply())?.document).toMatchObject({ ok: 1, n: 3 });
  });

  it('requires $db in OP_MSG', async () => {
    const c = await connection();
    c.send(opMsg({ ping: 1 }));
    expect((await c.reply())?.document).toMatchObject({ ok: 0, code: 40571 });
  });

  it('accepts a correct CRC-32C checksum and closes on a wrong one', async () => {
    const withChecksum = (bytes: Buffer, corrupt: boolean) => {
      const message = Buffer.concat([bytes, Buffer.alloc(4)]);
      message.writeInt32LE(message.length, 0);
      message.writeUInt32LE(message.readUInt32LE(16) | 1, 16);
      const sum = crc32c(message.subarray(0, message.length - 4));
      // `^` answers a signed 32-bit number: `>>> 0` makes it the unsigned one the field holds (half
      // of all sums have the top bit set, so without it the test failed on half of the request ids).
      message.writeUInt32LE(corrupt ? (sum ^ 1) >>> 0 : sum, message.length - 4);
      return message;
    };
    const good = await connection();
    good.send(withChecksum(opMsg({ ping: 1, $db: 'admin' }), false));
    expect((await good.reply())?.document.ok).toBe(1);
    const bad = await connection();
    bad.send(withChecksum(opMsg({ ping: 1, $db: 'admin' }), true));
    expect(await bad.reply()).toBeNull();
  });

  it('computes the standard CRC-32C check value', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
  });

  it('sends no reply when the client sets moreToCome', async () => {
    const c = await connection();
    c.send(opMsg({ insert: 'quiet', documents: [{ q: 1 }], $db: 'wire', writeConcern: { w: 0 } }, {}, 2));
    c.send(opMsg({ count: 'quiet', $db: 'wire' }));
    const reply = await c.reply();
    expect(reply?.opCode).toBe(OP_MSG);
    expect(reply?.document).toMatchObject({ ok: 1, n: 1 });
  });

  it('closes a connection whose header announces more than maxMessageSizeBytes, before reading it', async () => {
    const c = await connection();
    const hostile = Buffer.alloc(16);
    hostile.writeInt32LE(48_000_001, 0);
    hostile.writeInt32LE(OP_MSG, 12);
    c.send(hostile);
    expect(await c.waitClosed()).toBe(true);
    expect(await stillServes()).toBe(true);
  });

  it('closes a connection that announces a length shorter than a header', async () => {
    const c = await connection();
    const tiny = Buffer.alloc(16);
    tiny.writeInt32LE(3, 0);
    c.send(tiny);
    expect(await c.waitClosed()).toBe(true);
    expect(await stillServes()).toBe(true);
  });

  it('reassembles a message that arrives one byte at a time', async () => {
    const c = await connection();
    const bytes = opMsg({ ping: 1, $db: 'admin' });
    for (const byte of bytes) c.send(Buffer.from([byte]));
    expect((await c.reply())?.document.ok).toBe(1);
  });
});
