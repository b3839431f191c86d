// The connection a member keeps to each other member. It must never stay broken: a member that
// cannot reach a live peer sees it as down for good, and a set that needs its vote never elects.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.ts';
import { PeerClient, PeerUnreachable } from '../../src/repl/PeerClient.ts';

let peer: RunningEmulator;
beforeAll(async () => {
  peer = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await peer?.stop();
});

/** Holds the event loop, as a busy or descheduled process does. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

it('connects again after a connect whose timeout fired first', async () => {
  const client = new PeerClient(`${peer.host}:${peer.port}`);
  try {
    // The loop stalls past the connect timeout: when it runs again the timer fires before the
    // socket's 'connect' event is read (timers come first in an event-loop turn).
    const first = client.command('admin', { ping: 1 }, 5);
    stall(50);
    await expect(first).rejects.toBeInstanceOf(PeerUnreachable);
    // The peer is up: the next command connects anew and is answered.
    expect(await client.command('admin', { ping: 1 }, 5_000)).toMatchObject({ ok: 1 });
  } finally {
    client.close();
  }
});
