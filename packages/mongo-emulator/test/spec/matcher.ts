// Matching of expected values against actual ones, as "Evaluating Matches" in the unified test
// format specifies: $$ operators, numbers equal across int/long/double, extra keys allowed in
// root-level documents only, arrays of the same length. Returns every difference found, one per
// line (or null when the values match), so a failure shows all that differs, not only the first.
import { Binary, EJSON } from 'bson';
import {
  bsonTypeNames,
  describe,
  isDocument,
  numberLessOrEqual,
  numbersEqual,
  numericValue,
  scalarsEqual,
} from './bsonTypes.ts';

/** What the matcher needs from the test's entity map. */
export interface MatchEntities {
  /** The logical session id (`{ id: Binary }`) of a session entity. */
  sessionLsid(name: string): unknown;
  /** A BSON value saved in the entity map (saveResultAsEntity). */
  bsonEntity(name: string): unknown;
}

const NO_ENTITIES: MatchEntities = {
  sessionLsid: (name) => {
    throw new Error(`no entity map: cannot resolve session ${name}`);
  },
  bsonEntity: (name) => {
    throw new Error(`no entity map: cannot resolve entity ${name}`);
  },
};

type Difference = string | null;

/** Every difference of a comparison, one per line, or null when there is none. */
function joined(differences: string[]): Difference {
  return differences.length === 0 ? null : differences.join('\n');
}

function collect(into: string[], difference: Difference): void {
  if (difference !== null) into.push(difference);
}

/** The special operator of `value` when it is a document whose only key starts with `$$`. */
function specialOperator(value: unknown): string | undefined {
  if (!isDocument(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0]!.startsWith('$$') ? keys[0] : undefined;
}

function at(path: string, message: string): string {
  return `${path || '(root)'}: ${message}`;
}

export class Matcher {
  constructor(private readonly entities: MatchEntities = NO_ENTITIES) {}

  /** Match a value whose top level is a root-level document (extra keys allowed there). */
  matchRoot(expected: unknown, actual: unknown, path = ''): Difference {
    return this.match(expected, actual, path, true);
  }

  /** Match a value that is not a root-level document (e.g. `distinct` results). */
  matchNested(expected: unknown, actual: unknown, path = ''): Difference {
    return this.match(expected, actual, path, false);
  }

  /** Match a list of root-level documents (iterated cursor results): same length, each root. */
  matchDocumentList(expected: unknown, actual: unknown, path = ''): Difference {
    if (!Array.isArray(expected)) return this.matchRoot(expected, actual, path);
    if (!Array.isArray(actual)) return at(path, `expected an array, got ${describe(actual)}`);
    if (expected.length !== actual.length) {
      return at(path, `expected ${expected.length} documents, got ${actual.length}: ${describe(actual)}`);
    }
    const differences: string[] = [];
    for (let i = 0; i < expected.length; i += 1)
      collect(differences, this.matchRoot(expected[i], actual[i], `${path}[${i}]`));
    return joined(differences);
  }

  private match(expected: unknown, rawActual: unknown, path: string, isRoot: boolean): Difference {
    const actual = fromMap(rawActual);
    const operator = specialOperator(expected);
    if (operator !== undefined) {
      return this.matchOperator(operator, (expected as Record<string, unknown>)[operator], actual, path, isRoot);
    }
    if (isDocument(expected)) return this.matchDocument(expected, actual, path, isRoot);
    if (Array.isArray(expected)) return this.matchArray(expected, actual, path);
    return matchScalar(expected, actual, path);
  }

  private matchDocument(expected: Record<string, unknown>, actual: unknown, path: string, isRoot: boolean): Difference {
    if (!isDocument(actual)) return at(path, `expected a document, got ${describe(actual)}`);
    const differences: string[] = [];
    for (const [key, value] of Object.entries(expected)) {
      const keyPath = path ? `${path}.${key}` : key;
      const operator = specialOperator(value);
      const present = Object.hasOwn(actual, key) && actual[key] !== undefined;
      if (operator === '$$exists') {
        const wanted = (value as Record<string, unknown>)[operator] === true;
        if (wanted !== present)
          differences.push(
            at(keyPath, wanted ? 'expected the key to exist' : `expected no key, got ${describe(actual[key])}`),
          );
        continue;
      }
      if (operator === '$$unsetOrMatches' && !present) continue;
      if (!present) differences.push(at(keyPath, `missing, expected ${describe(value)}`));
      else collect(differences, this.match(value, actual[key], keyPath, false));
    }
    if (!isRoot) {
      const extra = Object.keys(actual).filter((key) => actual[key] !== undefined && !Object.hasOwn(expected, key));
      if (extra.length > 0)
        differences.push(at(path, `unexpected key(s) ${extra.join(', ')} in nested document ${describe(actual)}`));
    }
    return joined(differences);
  }

  private matchArray(expected: unknown[], actual: unknown, path: string): Difference {
    if (!Array.isArray(actual)) return at(path, `expected an array, got ${describe(actual)}`);
    if (expected.length !== actual.length) {
      return at(path, `expected ${expected.length} elements, got ${actual.length}: ${describe(actual)}`);
    }
    const differences: string[] = [];
    for (let i = 0; i < expected.length; i += 1)
      collect(differences, this.match(expected[i], actual[i], `${path}[${i}]`, false));
    return joined(differences);
  }

  private matchOperator(
    operator: string,
    argument: unknown,
    actual: unknown,
    path: string,
    isRoot: boolean,
  ): Difference {
    switch (operator) {
      case '$$exists':
        // Outside a document key position $$exists can only speak about the value itself.
        return (argument === true) === (actual !== undefined)
          ? null
          : at(path, `$$exists: ${String(argument)} not satisfied`);
      case '$$unsetOrMatches':
        return actual === undefined ? null : this.match(argument, actual, path, isRoot);
      case '$$type': {
        if (actual === undefined) return at(path, `expected a value of type ${describe(argument)}, got nothing`);
        const wanted = Array.isArray(argument) ? (argument as string[]) : [argument as string];
        const names = bsonTypeNames(actual);
        return wanted.some((type) => names.includes(type))
          ? null
          : at(path, `expected type ${wanted.join('|')}, got ${names[0]} ${describe(actual)}`);
      }
      case '$$sessionLsid':
        return this.match(this.entities.sessionLsid(String(argument)), actual, path, false);
      case '$$matchesEntity':
        return this.match(this.entities.bsonEntity(String(argument)), actual, path, isRoot);
      case '$$matchesHexBytes':
        return matchHexBytes(String(argument), actual, path);
      case '$$lte': {
        const [limit, value] = [numericValue(argument), numericValue(actual)];
        if (limit === undefined) throw new Error(`$$lte needs a number, got ${describe(argument)}`);
        return value !== undefined && numberLessOrEqual(value, limit)
          ? null
          : at(path, `expected <= ${describe(argument)}, got ${describe(actual)}`);
      }
      case '$$matchAsDocument': {
        if (typeof actual !== 'string') return at(path, `expected an Extended JSON string, got ${describe(actual)}`);
        return this.match(argument, EJSON.parse(actual, { relaxed: false }), path, false);
      }
      case '$$matchAsRoot':
        return this.match(argument, actual, path, true);
      default:
        throw new Error(`unknown special operator ${operator}`);
    }
  }
}

/** The driver sends some documents (e.g. `sort`) as Maps to keep key order; match them as documents. */
function fromMap(value: unknown): unknown {
  return value instanceof Map ? Object.fromEntries(value) : value;
}

function matchScalar(expected: unknown, actual: unknown, path: string): Difference {
  const expectedNumber = numericValue(expected);
  if (expectedNumber !== undefined) {
    const actualNumber = numericValue(actual);
    if (actualNumber !== undefined && numbersEqual(expectedNumber, actualNumber)) return null;
    return at(path, `expected ${describe(expected)}, got ${describe(actual)}`);
  }
  return scalarsEqual(expected, actual) ? null : at(path, `expected ${describe(expected)}, got ${describe(actual)}`);
}

const HEX_BYTES = /^(?:[0-9a-fA-F]{2})*$/;

function matchHexBytes(hex: string, actual: unknown, path: string): Difference {
  if (!HEX_BYTES.test(hex)) throw new Error(`malformed $$matchesHexBytes argument ${hex}`);
  let bytes: Uint8Array | undefined;
  if (actual instanceof Uint8Array) bytes = actual;
  else if (actual instanceof Binary) bytes = actual.value();
  else if (typeof actual === 'string') bytes = Buffer.from(actual, 'latin1');
  if (bytes === undefined) return at(path, `expected bytes ${hex}, got ${describe(actual)}`);
  return Buffer.from(bytes).toString('hex') === hex.toLowerCase()
    ? null
    : at(path, `expected bytes ${hex}, got ${Buffer.from(bytes).toString('hex')}`);
}

/**
 * Exact equality for collection contents in `outcome`: every key on both sides at every level,
 * key order ignored, numbers compared across int/long/double.
 */
export function exactDifference(expected: unknown, rawActual: unknown, path = ''): Difference {
  const actual = fromMap(rawActual);
  if (isDocument(expected)) {
    if (!isDocument(actual)) return at(path, `expected a document, got ${describe(actual)}`);
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    const differences: string[] = [];
    for (const key of keys) {
      const keyPath = path ? `${path}.${key}` : key;
      if (!Object.hasOwn(actual, key)) differences.push(at(keyPath, `missing, expected ${describe(expected[key])}`));
      else if (!Object.hasOwn(expected, key))
        differences.push(at(keyPath, `unexpected key with value ${describe(actual[key])}`));
      else collect(differences, exactDifference(expected[key], actual[key], keyPath));
    }
    return joined(differences);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return at(path, `expected an array, got ${describe(actual)}`);
    if (expected.length !== actual.length)
      return at(path, `expected ${expected.length} elements, got ${actual.length}: ${describe(actual)}`);
    const differences: string[] = [];
    for (let i = 0; i < expected.length; i += 1)
      collect(differences, exactDifference(expected[i], actual[i], `${path}[${i}]`));
    return joined(differences);
  }
  return matchScalar(expected, actual, path);
}
