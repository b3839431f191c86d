// The framing of every file the emulator keeps on disk (journal and checkpoint): a record is
// [length u32 LE][crc32 u32 LE][payload], so a torn or damaged record is found, never read as data.
// zlib's CRC-32, native (Node >= 20.15): fast enough to check every record of a 100 MB recovery.
import { crc32 } from 'node:zlib';

export const RECORD_HEADER_BYTES = 8;
/** How every record's document is serialised: undefined fields are left out, as mongod stores no undefined. */
export const BSON_WRITE_OPTIONS = { ignoreUndefined: true } as const;

/** Why a data directory is refused: exit code 100, as mongod's initAndListen failures. */
export class StorageError extends Error {
  constructor(
    readonly codeName: 'DBPathInUse' | 'DataDirectoryDamaged' | 'DataDirectoryForeign',
    message: string,
  ) {
    super(message);
  }
}

export function frame(payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(RECORD_HEADER_BYTES + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32(payload), 4);
  out.set(payload, RECORD_HEADER_BYTES);
  return out;
}

export interface ReadRecords {
  records: Buffer[];
  /** Where the whole records end: a torn tail starts here (undefined when the file ends on a record). */
  tornAt: number | undefined;
}

/**
 * The records of `bytes`. A bad record at the tail (cut short, zero-filled, or the last one with
 * a wrong checksum) is what a crash during a write leaves: `tornAt` says where it starts. A bad
 * record with more data after it is damage, and throws, naming the file and the offset.
 */
export function readRecords(bytes: Buffer, file: string): ReadRecords {
  const records: Buffer[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const rest = bytes.length - offset;
    if (rest < RECORD_HEADER_BYTES) return { records, tornAt: offset };
    const length = bytes.readUInt32LE(offset);
    const end = offset + RECORD_HEADER_BYTES + length;
    if (length === 0 && bytes.subarray(offset).every((b) => b === 0)) return { records, tornAt: offset };
    if (end > bytes.length) return { records, tornAt: offset };
    const payload = bytes.subarray(offset + RECORD_HEADER_BYTES, end);
    if (crc32(payload) !== bytes.readUInt32LE(offset + 4)) {
      if (end === bytes.length) return { records, tornAt: offset };
      throw new StorageError(
        'DataDirectoryDamaged',
        `${file} is damaged: the record at byte ${offset} fails its checksum and is not the last one`,
      );
    }
    records.push(payload);
    offset = end;
  }
  return { records, tornAt: undefined };
}
