import { HEADER_LENGTH_BYTES, MAX_MESSAGE_SIZE_BYTES } from './constants.ts';
import { WireProtocolError } from './WireProtocolError.ts';

/**
 * Cuts a TCP byte stream into whole messages. The length in the header is checked before a byte
 * of the body is kept, so a hostile length cannot make the server buffer more than one maximal
 * message per connection.
 */
export class MessageFramer {
  private chunks: Buffer[] = [];
  private bufferedBytes = 0;

  /** Adds bytes read from the socket and returns every message they complete. */
  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.bufferedBytes += chunk.length;
    const frames: Buffer[] = [];
    for (;;) {
      if (this.bufferedBytes < 4) return frames;
      const length = this.peekLength();
      if (length < HEADER_LENGTH_BYTES || length > MAX_MESSAGE_SIZE_BYTES) {
        throw new WireProtocolError(
          `message length ${length} is outside [${HEADER_LENGTH_BYTES}, ${MAX_MESSAGE_SIZE_BYTES}]`,
        );
      }
      if (this.bufferedBytes < length) return frames;
      frames.push(this.take(length));
    }
  }

  private peekLength(): number {
    const first = this.chunks[0]!;
    if (first.length >= 4) return first.readInt32LE(0);
    const joined = Buffer.concat(this.chunks);
    this.chunks = [joined];
    return joined.readInt32LE(0);
  }

  private take(length: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const frame = all.subarray(0, length);
    const rest = all.subarray(length);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.bufferedBytes = rest.length;
    return frame;
  }
}
