// Proves a hostile or corrupt byte stream can only close its own connection: random messages,
// valid messages with mutated bytes, and truncations never crash the server or wedge others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeMessage } from '../../src/wire/decodeMessage.ts';
import { WireProtocolError } from '../../src/wire/WireProtocolError.ts';
import { startEmulator, type RunningEmulator } from '../../src/index.ts';
import { opMsg, opQuery, RawConnection } from './rawWire.ts';

/** A seeded generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEEDS = [1, 7, 42, 1234, 99991];
const CASES_PER_SEED = 400;

const VALID = [
  opMsg({ ping: 1, $db: 'admin' }),
  opMsg({ insert: 'f', $db: 'fuzz' }, { documents: [{ a: 1, b: 'x' }, { c: [1, 2, { d: null }] }] }),
  opMsg({ find: 'f', filter: { a: { $gt: 0 } }, $db: 'fuzz' }),
  opQuery('admin.$cmd', { isMaster: 1 }),
];

/** A copy of `source` that differs from it (the test checks): every kind changes at least one byte or the length. */
function mutate(next: () => number, source: Buffer): Buffer {
  const bytes = Buffer.from(source);
  const kind = Math.floor(next() * 4);
  if (kind === 0) {
    const flips = 1 + Math.floor(next() * 4);
    for (let i = 0; i < flips; i++) {
      const at = Math.floor(next() * bytes.length);
      bytes[at] = (bytes[at]! + 1 + Math.floor(next() * 255)) & 0xff; // never the byte it was
    }
    return bytes;
  }
  if (kind === 1) {
    const cut = 16 + Math.floor(next() * (bytes.length - 16));
    const truncated = bytes.subarray(0, cut);
    truncated.writeInt32LE(truncated.length, 0); // a consistent header over an inconsistent body
    return truncated;
  }
  if (kind === 2) {
    const random = Buffer.from(Array.from({ length: 16 + Math.floor(next() * 64) }, () => Math.floor(next() * 256)));
    random.writeInt32LE(random.length, 0);
    return random;
  }
  // Keep the header, rewrite a random body offset with a plausible-looking length.
  const at = Math.min(16 + Math.floor(next() * (bytes.length - 20)), bytes.length - 4);
  const value = Math.floor(next() * 2 ** 31) * (next() < 0.5 ? -1 : 1);
  bytes.writeInt32LE(value === bytes.readInt32LE(at) ? ~value : value, at);
  return bytes;
}

describe('decodeMessage under fuzzing', () => {
  it('either decodes or throws WireProtocolError, never anything else', () => {
    const outcomes = { decoded: 0, rejected: 0 };
    for (const seed of SEEDS) {
      const next = random(seed);
      for (let i = 0; i < CASES_PER_SEED; i++) {
        const original = VALID[i % VALID.length]!;
        const message = mutate(next, original);
        // A mutation that changed nothing would test the happy path and prove nothing.
        expect(message.equals(original), `seed ${seed} case ${i} did not mutate`).toBe(false);
        try {
          decodeMessage(message);
          outcomes.decoded++;
        } catch (error) {
          expect(error, `seed ${seed} case ${i}`).toBeInstanceOf(WireProtocolError);
          outcomes.rejected++;
        }
      }
    }
    // Both paths run: mutants the decoder must refuse, and mutants it still decodes (a changed
    // value inside a valid document), each without crashing.
    expect(outcomes.rejected).toBeGreaterThan(0);
    expect(outcomes.decoded).toBeGreaterThan(0);
  });

  it("decodes every unmutated message, so a refusal above is the mutation's doing", () => {
    for (const message of VALID) expect(() => decodeMessage(message)).not.toThrow();
  });
});

describe('the server under fuzzing', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator.stop();
  });

  it('keeps serving other connections while fuzzed connections are closed', async () => {
    const next = random(2024);
    const healthy = await RawConnection.open(emulator.port);
    const CONNECTIONS = 40;
    const MESSAGES_PER_CONNECTION = 5;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, i) => {
        const c = await RawConnection.open(emulator.port);
        for (let m = 0; m < MESSAGES_PER_CONNECTION; m++) c.send(mutate(next, VALID[(i + m) % VALID.length]!));
        // Drain whatever comes back (replies to messages that still parse) until closed or quiet.
        for (let r = 0; r < MESSAGES_PER_CONNECTION; r++) {
          const reply = await c.reply(300).catch(() => null);
          if (reply === null) break;
        }
        c.close();
      }),
    );
    healthy.send(opMsg({ ping: 1, $db: 'admin' }));
    expect((await healthy.reply())?.document.ok).toBe(1);
    healthy.close();
  });
});
