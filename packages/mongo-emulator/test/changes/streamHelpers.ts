// Shared helpers of the change-stream tests: read a known number of events without hanging.
import type { ChangeStream, Document } from 'mongodb';

/** How long a test waits for events it expects before failing. */
const EVENTS_WAIT_MS = 5000;

/** Reads exactly `n` events, failing rather than hanging when they do not come. */
export async function take<T extends Document>(stream: ChangeStream<Document, T>, n: number): Promise<T[]> {
  const out: T[] = [];
  const deadlineMs = Date.now() + EVENTS_WAIT_MS;
  while (out.length < n) {
    if (Date.now() > deadlineMs) throw new Error(`only ${out.length} of ${n} events arrived`);
    const next = await stream.tryNext();
    if (next) out.push(next);
  }
  return out;
}

/** Opens a stream and waits for its aggregate, so writes made next are after its start. */
export async function opened<T extends Document>(
  stream: ChangeStream<Document, T>,
): Promise<ChangeStream<Document, T>> {
  await stream.tryNext();
  return stream;
}
