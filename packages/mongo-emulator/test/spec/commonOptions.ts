// Conversion of test-file argument values into what the Node driver's API accepts. Test files are
// parsed with `relaxed: false`, so numbers arrive as Int32/Double/Long wrappers: documents that
// reach the server keep them (their BSON types matter), option values become plain JS values.
import { ReadPreference, type ReadConcernLike, type ReadPreferenceMode, type WriteConcernSettings } from 'mongodb';
import { isDocument, numericValue } from './bsonTypes.ts';

/** Deep copy with BSON numbers turned into JS numbers (longs beyond 2^53 stay bigint-exact Longs). */
export function plain(value: unknown): unknown {
  const number = numericValue(value);
  if (number !== undefined) {
    return typeof number === 'bigint' &&
      (number > BigInt(Number.MAX_SAFE_INTEGER) || number < BigInt(Number.MIN_SAFE_INTEGER))
      ? value
      : Number(number);
  }
  if (Array.isArray(value)) return value.map(plain);
  if (isDocument(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

export function toReadPreference(value: unknown): ReadPreference {
  const { mode, tagSets, maxStalenessSeconds, hedge } = plain(value) as {
    mode: ReadPreferenceMode;
    tagSets?: Array<Record<string, string>>;
    maxStalenessSeconds?: number;
    hedge?: { enabled?: boolean };
  };
  return new ReadPreference(mode, tagSets, { maxStalenessSeconds, hedge });
}

export function toWriteConcern(value: unknown): WriteConcernSettings {
  const { w, journal, wtimeoutMS } = plain(value) as { w?: number | string; journal?: boolean; wtimeoutMS?: number };
  const settings: WriteConcernSettings = {};
  if (w !== undefined) settings.w = w as WriteConcernSettings['w'];
  if (journal !== undefined) settings.journal = journal;
  if (wtimeoutMS !== undefined) settings.wtimeoutMS = wtimeoutMS;
  return settings;
}

export function toReadConcern(value: unknown): ReadConcernLike {
  return plain(value) as ReadConcernLike;
}

/** readConcern / readPreference / writeConcern as the driver wants them, for any options object. */
export function commonOptions(options: Record<string, unknown>): Record<string, unknown> {
  const converted: Record<string, unknown> = { ...options };
  if (options.readPreference !== undefined) converted.readPreference = toReadPreference(options.readPreference);
  if (options.writeConcern !== undefined) converted.writeConcern = toWriteConcern(options.writeConcern);
  if (options.readConcern !== undefined) converted.readConcern = toReadConcern(options.readConcern);
  return converted;
}
