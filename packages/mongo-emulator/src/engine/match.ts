// Query filters compiled to predicates, with MongoDB's semantics: dotted paths fan out through
// arrays, a leaf array matches when the array or any element matches, null matches missing,
// and comparisons only hold within one canonical type bracket.
import { CommandError } from '../errors.ts';
import { canonicalType, compareValues, TypeRank } from './compare.ts';
import { collationComparator } from './collation.ts';
import { compileExpression, isTruthy } from './expression.ts';
import { matchesSchema } from './jsonSchema.ts';
import { isNumeric, toDouble, typeName } from './numeric.ts';
import { isRegexValue, toRegExp } from './regex.ts';
import type { Collation, Document } from './types.ts';

export type Predicate = (doc: Document) => boolean;

export interface MatchContext {
  now: Date;
  clusterTime?: unknown;
  variables?: Document;
  collation?: Collation;
}

/**
 * The values found at a path: `whole` as stored (for $size, $elemMatch), `expanded` with the
 * elements of leaf arrays added (for everything else).
 */
interface Candidates {
  whole: unknown[];
  expanded: unknown[];
}

type ValueTest = (c: Candidates) => boolean;

function candidates(whole: unknown[]): Candidates {
  if (!whole.some(Array.isArray)) return { whole, expanded: whole };
  const expanded: unknown[] = [];
  for (const v of whole) {
    expanded.push(v);
    if (Array.isArray(v)) expanded.push(...v);
  }
  return { whole, expanded };
}

const isPlainObject = (v: unknown): v is Document =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

const isOperatorObject = (v: unknown): v is Document => {
  if (!isPlainObject(v)) return false;
  const first = Object.keys(v)[0];
  return first?.startsWith('$') === true;
};

/**
 * The candidate values at a dotted path. Arrays met on the way are fanned out into their
 * object elements; with `expandLeaf`, an array at the leaf also contributes its elements.
 * A path that resolves to nothing yields `undefined` (missing).
 */
export function valuesAtPath(doc: unknown, path: string, expandLeaf = true): unknown[] {
  const out: unknown[] = [];
  walk(doc, path.split('.'), 0, out, expandLeaf);
  return out.length === 0 ? [undefined] : out;
}

function walk(value: unknown, parts: string[], i: number, out: unknown[], expandLeaf: boolean): void {
  if (i === parts.length) {
    out.push(value);
    if (expandLeaf && Array.isArray(value)) out.push(...value);
    return;
  }
  const part = parts[i]!;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(part)) {
      const idx = Number(part);
      if (idx < value.length) walk(value[idx], parts, i + 1, out, expandLeaf);
    }
    for (const el of value) if (isPlainObject(el)) walk(el, parts, i, out, expandLeaf);
    return;
  }
  if (isPlainObject(value)) {
    const next = (value as Document)[part];
    if (next !== undefined) walk(next, parts, i + 1, out, expandLeaf);
    else out.push(undefined);
  } else {
    out.push(undefined);
  }
}

function badValue(message: string): never {
  throw new CommandError('BadValue', message);
}

/** Compiles a filter document into a predicate; invalid filters throw mongod's errors. */
export function compileFilter(filter: Document, ctx: MatchContext): Predicate {
  if (!isPlainObject(filter)) badValue('query filter must be an object');
  const parts: Predicate[] = [];
  for (const [key, value] of Object.entries(filter)) parts.push(compileClause(key, value, ctx));
  if (parts.length === 1) return parts[0]!;
  return (doc) => parts.every((p) => p(doc));
}

function compileClause(key: string, value: unknown, ctx: MatchContext): Predicate {
  if (!key.startsWith('$')) return compileField(key, value, ctx);
  switch (key) {
    case '$and':
    case '$or':
    case '$nor': {
      if (!Array.isArray(value) || value.length === 0) badValue(`${key} must be a nonempty array`);
      const subs = value.map((sub) => {
        if (!isPlainObject(sub)) badValue(`${key} argument's entries must be objects`);
        return compileFilter(sub, ctx);
      });
      if (key === '$and') return (doc) => subs.every((p) => p(doc));
      if (key === '$or') return (doc) => subs.some((p) => p(doc));
      return (doc) => !subs.some((p) => p(doc));
    }
    case '$expr': {
      const compute = compileExpression(value, {
        now: ctx.now,
        clusterTime: ctx.clusterTime,
        variables: ctx.variables,
      });
      return (doc) => isTruthy(compute(doc));
    }
    case '$comment':
      return () => true;
    case '$alwaysTrue':
      return () => true;
    case '$alwaysFalse':
      return () => false;
    case '$jsonSchema':
      if (!isPlainObject(value)) badValue('$jsonSchema must be an object');
      return (doc) => matchesSchema(doc, value);
    case '$where':
      return badValue('no globalScriptEngine in $where parsing');
    case '$text':
      throw new CommandError('IndexNotFound', 'text index required for $text query');
    default:
      return badValue(`unknown top level operator: ${key}`);
  }
}

function compileField(path: string, value: unknown, ctx: MatchContext): Predicate {
  const test = compileValueTest(path, value, ctx);
  return (doc) => test(candidates(valuesAtPath(doc, path, false)));
}

/** A field's condition: either an operator object or an implicit equality. */
function compileValueTest(path: string, value: unknown, ctx: MatchContext): ValueTest {
  if (!isOperatorObject(value)) {
    if (isRegexValue(value)) return regexTest(toRegExp(value));
    return equalityTest(value, ctx);
  }
  const tests: ValueTest[] = [];
  const entries = Object.entries(value);
  for (const [op, operand] of entries) {
    if (op === '$options') {
      if (!('$regex' in value)) badValue('$options needs a $regex');
      continue;
    }
    tests.push(compileOperator(path, op, operand, value, ctx));
  }
  return (c) => tests.every((t) => t(c));
}

function someValue(test: (v: unknown) => boolean): ValueTest {
  return (c) => c.expanded.some(test);
}

function wholeValue(test: (v: unknown) => boolean): ValueTest {
  return (c) => c.whole.some(test);
}

function not(test: ValueTest): ValueTest {
  return (c) => !test(c);
}

/** Equality with null matching missing; regexes in $in/$eq-by-value position match strings. */
function equalityTest(operand: unknown, ctx: MatchContext): ValueTest {
  if (operand === null) return someValue((v) => v === null || v === undefined);
  const cmp = comparator(ctx);
  const rank = canonicalType(operand);
  return someValue((v) => canonicalType(v) === rank && cmp(v, operand) === 0);
}

function comparator(ctx: MatchContext): (a: unknown, b: unknown) => number {
  return collationComparator(ctx.collation);
}

function rangeTest(operand: unknown, ctx: MatchContext, accept: (c: number) => boolean): ValueTest {
  const cmp = comparator(ctx);
  const rank = canonicalType(operand);
  // MinKey and MaxKey bound every type, as in mongod's index bounds.
  if (rank === TypeRank.minKey || rank === TypeRank.maxKey)
    return someValue((v) => v !== undefined && accept(compareValues(v, operand)));
  return someValue((v) => canonicalType(v) === rank && accept(cmp(v, operand)));
}

function regexTest(re: RegExp): ValueTest {
  return someValue((v) => {
    if (typeof v === 'string') return re.test(v);
    if ((v as { _bsontype?: string } | null)?._bsontype === 'BSONSymbol')
      return re.test(String((v as { value: string }).value));
    if (isRegexValue(v)) return compareValues(v, re) === 0;
    return false;
  });
}

function inTest(operand: unknown, ctx: MatchContext, op: string): ValueTest {
  if (!Array.isArray(operand)) badValue(`${op} needs an array`);
  const tests = operand.map((item) => {
    if (isOperatorObject(item)) badValue(`cannot nest $ under ${op}`);
    return isRegexValue(item) ? regexTest(toRegExp(item)) : equalityTest(item, ctx);
  });
  return (c) => tests.some((t) => t(c));
}

const TYPE_ALIASES: Record<string, number> = {
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  dbPointer: 12,
  javascript: 13,
  symbol: 14,
  javascriptWithScope: 15,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
};

function typeTest(operand: unknown): ValueTest {
  const wanted = (Array.isArray(operand) ? operand : [operand]).map((t) => {
    if (t === 'number') return 'number';
    if (typeof t === 'string') {
      if (!(t in TYPE_ALIASES)) badValue(`Unknown type name alias: ${t}`);
      return t;
    }
    if (isNumeric(t)) {
      const code = toDouble(t);
      const name = Object.keys(TYPE_ALIASES).find((k) => TYPE_ALIASES[k] === code);
      if (!name) badValue(`Invalid numerical type code: ${code}`);
      return name;
    }
    return badValue('type must be represented as a number or a string');
  });
  return someValue((v) => v !== undefined && wanted.some((w) => (w === 'number' ? isNumeric(v) : typeName(v) === w)));
}

function modTest(operand: unknown): ValueTest {
  if (!Array.isArray(operand) || operand.length !== 2) badValue('malformed mod, needs to be an array of two numbers');
  const [d, r] = operand.map((x) =>
    isNumeric(x) ? BigInt(Math.trunc(toDouble(x))) : badValue('malformed mod, divisor not a number'),
  );
  if (d === 0n) badValue('divisor cannot be 0');
  return someValue((v) => {
    if (!isNumeric(v)) return false;
    const n = typeof v === 'bigint' ? v : BigInt(Math.trunc(toDouble(v)));
    return n % d! === r;
  });
}

function bitsTest(op: string, operand: unknown): ValueTest {
  let mask = 0n;
  if (Array.isArray(operand)) {
    for (const p of operand) mask |= 1n << BigInt(toDouble(p));
  } else if (isNumeric(operand)) {
    mask = BigInt(Math.trunc(toDouble(operand)));
  } else {
    badValue(`${op} takes an Array, a number, or a BinData but received: ${typeName(operand)}`);
  }
  return someValue((v) => {
    if (!isNumeric(v)) return false;
    const d = toDouble(v);
    if (typeof v !== 'bigint' && !Number.isInteger(d)) return false;
    const bits = BigInt.asUintN(64, typeof v === 'bigint' ? v : BigInt(d));
    const set = bits & BigInt.asUintN(64, mask);
    switch (op) {
      case '$bitsAllSet':
        return set === BigInt.asUintN(64, mask);
      case '$bitsAnySet':
        return set !== 0n;
      case '$bitsAllClear':
        return set === 0n;
      default:
        return set !== BigInt.asUintN(64, mask);
    }
  });
}

function elemMatchTest(path: string, operand: unknown, ctx: MatchContext): ValueTest {
  if (!isPlainObject(operand)) badValue('$elemMatch needs an Object');
  const valueOps =
    isOperatorObject(operand) && !['$and', '$or', '$nor', '$expr', '$where'].includes(Object.keys(operand)[0]!);
  const elementTest: (el: unknown) => boolean = valueOps
    ? (() => {
        const t = compileValueTest(path, operand, ctx);
        return (el: unknown) => t(candidates([el]));
      })()
    : (() => {
        const p = compileFilter(operand, ctx);
        return (el: unknown) => isPlainObject(el) && p(el);
      })();
  return wholeValue((v) => Array.isArray(v) && v.some(elementTest));
}

function allTest(path: string, operand: unknown, ctx: MatchContext): ValueTest {
  if (!Array.isArray(operand)) badValue('$all needs an array');
  if (operand.length === 0) return () => false;
  const tests = operand.map((item) =>
    isPlainObject(item) && '$elemMatch' in item
      ? elemMatchTest(path, item.$elemMatch, ctx)
      : compileValueTest(path, item, ctx),
  );
  return (c) => tests.every((t) => t(c));
}

function compileOperator(path: string, op: string, operand: unknown, all: Document, ctx: MatchContext): ValueTest {
  switch (op) {
    case '$eq':
      return equalityTest(operand, ctx);
    case '$ne':
      return not(equalityTest(operand, ctx));
    case '$gt':
      return rangeTest(operand, ctx, (c) => c > 0);
    case '$lt':
      return rangeTest(operand, ctx, (c) => c < 0);
    case '$gte':
      return operand === null ? equalityTest(null, ctx) : rangeTest(operand, ctx, (c) => c >= 0);
    case '$lte':
      return operand === null ? equalityTest(null, ctx) : rangeTest(operand, ctx, (c) => c <= 0);
    case '$in':
      return inTest(operand, ctx, '$in');
    case '$nin':
      return not(inTest(operand, ctx, '$nin'));
    case '$exists': {
      const want = isTruthy(operand);
      return (c) => c.whole.some((v) => v !== undefined) === want;
    }
    case '$type':
      return typeTest(operand);
    case '$regex': {
      if (typeof operand !== 'string' && !isRegexValue(operand)) badValue('$regex has to be a string');
      const options = all.$options;
      if (options !== undefined && typeof options !== 'string') badValue('$options has to be a string');
      return regexTest(toRegExp(operand, options as string | undefined));
    }
    case '$not': {
      if (isRegexValue(operand)) return not(regexTest(toRegExp(operand)));
      if (!isPlainObject(operand)) badValue('$not needs a regex or a document');
      if (Object.keys(operand).length === 0) badValue('$not cannot be empty');
      if (!isOperatorObject(operand)) badValue(`unknown operator: ${Object.keys(operand)[0]}`);
      return not(compileValueTest(path, operand, ctx));
    }
    case '$size': {
      if (!isNumeric(operand)) badValue('$size needs a number');
      const n = toDouble(operand);
      if (!Number.isInteger(n)) badValue(`Failed to parse $size. Expected an integer in: $size: ${n}`);
      if (n < 0) badValue(`Failed to parse $size. Expected a non-negative number in: $size: ${n}`);
      return wholeValue((v) => Array.isArray(v) && v.length === n);
    }
    case '$elemMatch':
      return elemMatchTest(path, operand, ctx);
    case '$all':
      return allTest(path, operand, ctx);
    case '$mod':
      return modTest(operand);
    case '$bitsAllSet':
    case '$bitsAnySet':
    case '$bitsAllClear':
    case '$bitsAnyClear':
      return bitsTest(op, operand);
    case '$comment':
      return () => true;
    default:
      return badValue(`unknown operator: ${op}`);
  }
}
