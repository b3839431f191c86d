// createChangeStream must run the `aggregate` before the stream is saved as an entity, but the
// driver opens change stream cursors lazily, on the first iteration.
import type { ChangeStream } from 'mongodb';

interface LazyCursor {
  cursorInit(): Promise<void>;
}

export async function openChangeStream(stream: ChangeStream): Promise<ChangeStream> {
  // cursorInit is the driver's own (private) first step of every iteration; it sends `aggregate`
  // and buffers the first batch without consuming it, and it rethrows the server's error.
  await (stream as unknown as { cursor: LazyCursor }).cursor.cursorInit();
  return stream;
}
