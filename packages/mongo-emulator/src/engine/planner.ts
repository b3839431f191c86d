// Choosing how to read a collection for a filter and sort: walk the bounds of the index whose
// leading fields the filter's top-level AND constrains best, or scan. Bounds only need to be a
// superset of the matching documents, since every fetched document is re-checked by the full
// filter; a plan is "ordered" when the walk already yields the requested sort order, which lets
// a limited query stop early. Two of mongod's rewrites are mirrored: an `$in` on an index
// field before the sort fields "explodes for sort" (one range per point, merged in sort order),
// and `$expr` comparisons of a field with a constant bound the index as `$_internalExpr*` does.
import { CommandError } from '../errors.ts';
import { canonicalType, compareValues } from './compare.ts';
import { BracketBound, KEY_MAX, KEY_MIN, type Index } from './indexes.ts';
import { isRegexValue } from './regex.ts';
import { toDouble } from './numeric.ts';
import type { Document } from './types.ts';

/** Most point intervals ($in values times fields) one plan may walk before using fewer fields. */
export const PLAN_INTERVALS_MAX = 500;

/**
 * Most ranges an ordered plan merges: mongod's `internalQueryMaxScansToExplode` (200). Past it
 * the walk is unordered and the sort blocks, as there.
 */
export const PLAN_EXPLODE_SCANS_MAX = 200;

/** Bounds on one field, in value order; inclusive unless marked (`$gt`, `$lt`). */
interface Interval {
  low: unknown;
  high: unknown;
  lowExclusive?: boolean;
  highExclusive?: boolean;
}

export interface Plan {
  index?: Index;
  /** Key-space ranges to walk, in walk order. */
  ranges: { start: unknown[]; end: unknown[] }[];
  /** The walk yields documents in the requested sort order. */
  ordered: boolean;
  /** Walk the index backwards (the sort is the index order reversed). */
  reverse: boolean;
  /**
   * Set when the ranges differ only in their first `mergeFrom` (point) fields and each is in
   * sort order on the rest: walk them side by side and merge on the key from that field on.
   */
  mergeFrom?: number;
}

/** Values of `$$NAME` variables a filter's `$expr` may compare with (NOW, CLUSTER_TIME, let). */
export type PlanVariables = Record<string, unknown>;

/** A `$expr` comparison of a field path with a constant: `$_internalExpr<op>` in mongod. */
class ExprBound {
  readonly op: string;
  readonly value: unknown;
  constructor(op: string, value: unknown) {
    this.op = op;
    this.value = value;
  }
}

const EXPR_OPS = new Set(['$eq', '$lt', '$lte', '$gt', '$gte']);
/** The operator that holds when the operands are swapped (`c < $f` is `$f > c`). */
const EXPR_FLIPPED: Record<string, string> = { $eq: '$eq', $lt: '$gt', $lte: '$gte', $gt: '$lt', $gte: '$lte' };

const SCAN: Plan = { ranges: [], ordered: false, reverse: false };

const isPlainObject = (v: unknown): v is Document =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

function addCondition(out: Map<string, unknown[]>, path: string, cond: unknown): void {
  out.set(path, [...(out.get(path) ?? []), cond]);
}

/** A constant operand of `$expr`: a literal, `{$literal}`, or a `$$` variable the plan knows. */
function exprConstant(operand: unknown, variables: PlanVariables): { value: unknown } | undefined {
  if (typeof operand === 'string') {
    if (!operand.startsWith('$')) return { value: operand };
    if (!operand.startsWith('$$')) return undefined;
    const name = operand.slice(2);
    return name.includes('.') || !(name in variables) ? undefined : { value: variables[name] };
  }
  // An object or array operand is itself an expression, except under $literal.
  if (isPlainObject(operand)) {
    const keys = Object.keys(operand);
    return keys.length === 1 && keys[0] === '$literal' ? { value: operand.$literal } : undefined;
  }
  return Array.isArray(operand) ? undefined : { value: operand };
}

const isFieldPath = (v: unknown): v is string =>
  typeof v === 'string' && v.startsWith('$') && !v.startsWith('$$') && v.length > 1;

/** The field comparisons of a `$expr` (and of its top-level `$and`), as ExprBound conditions. */
function exprConjunction(expr: unknown, variables: PlanVariables, out: Map<string, unknown[]>): void {
  if (!isPlainObject(expr)) return;
  const entries = Object.entries(expr);
  if (entries.length !== 1) return;
  const [op, args] = entries[0]!;
  if (op === '$and' && Array.isArray(args)) {
    for (const sub of args) exprConjunction(sub, variables, out);
    return;
  }
  if (!EXPR_OPS.has(op) || !Array.isArray(args) || args.length !== 2) return;
  const [a, b] = args;
  const field = isFieldPath(a) ? a : isFieldPath(b) ? b : undefined;
  const constant = exprConstant(field === a ? b : a, variables);
  if (!field || !constant || !isPointValue(constant.value)) return;
  addCondition(out, field.slice(1), new ExprBound(field === a ? op : EXPR_FLIPPED[op]!, constant.value));
}

/**
 * The conditions on each path of the filter's top-level AND (including nested $and), and its
 * `$expr` comparisons unless `variables` is undefined (a collation: string bounds are not built).
 */
function conjunction(
  filter: Document,
  variables: PlanVariables | undefined,
  out = new Map<string, unknown[]>(),
): Map<string, unknown[]> {
  for (const [key, cond] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(cond)) {
      for (const sub of cond) if (isPlainObject(sub)) conjunction(sub, variables, out);
    } else if (key === '$expr' && variables) {
      exprConjunction(cond, variables, out);
    } else if (!key.startsWith('$')) {
      addCondition(out, key, cond);
    }
  }
  return out;
}

/**
 * A value usable as an exact index point. Arrays and regexes need the full filter. null is a
 * point too: missing fields are indexed as null, so the null key holds every candidate.
 */
function isPointValue(v: unknown): boolean {
  return (
    v !== undefined &&
    !Array.isArray(v) &&
    !isRegexValue(v) &&
    !(isPlainObject(v) && Object.keys(v)[0]?.startsWith('$'))
  );
}

function bracketEnds(v: unknown): Interval {
  const rank = canonicalType(v);
  return { low: new BracketBound(rank, -1), high: new BracketBound(rank, 1) };
}

/**
 * Bounds of `$expr` comparisons on one field, as `$_internalExpr*`: no type bracketing ($expr
 * orders all types, so `$lte: c` reaches down to MinKey), and never on a multikey index, whose
 * keys are array elements while `$expr` compares the whole array.
 */
function exprIntervals(conds: unknown[], multikey: boolean): { intervals: Interval[]; point: boolean } | undefined {
  const bounds = conds.filter((c): c is ExprBound => c instanceof ExprBound);
  if (multikey || bounds.length === 0) return undefined;
  const eq = bounds.find((b) => b.op === '$eq');
  if (eq) return { intervals: [{ low: eq.value, high: eq.value }], point: true };
  const low = bounds.find((b) => b.op === '$gt' || b.op === '$gte');
  const high = bounds.find((b) => b.op === '$lt' || b.op === '$lte');
  return {
    intervals: [
      {
        low: low ? low.value : KEY_MIN,
        high: high ? high.value : KEY_MAX,
        lowExclusive: low?.op === '$gt',
        highExclusive: high?.op === '$lt',
      },
    ],
    point: false,
  };
}

/**
 * Intervals for one field's conditions; undefined when they give no usable bound. `point` says
 * every interval is a single value (an `$in` gives several), so later index fields can be bounded.
 */
function fieldIntervals(conds: unknown[], multikey: boolean): { intervals: Interval[]; point: boolean } | undefined {
  const queryConds = conds.filter((c) => !(c instanceof ExprBound));
  const fromQuery = queryIntervals(queryConds, multikey);
  if (fromQuery?.point) return fromQuery;
  const fromExpr = exprIntervals(conds, multikey);
  return fromExpr?.point ? fromExpr : (fromQuery ?? fromExpr);
}

function queryIntervals(conds: unknown[], multikey: boolean): { intervals: Interval[]; point: boolean } | undefined {
  for (const cond of conds) {
    if (isPointValue(cond) && !isPlainObject(cond)) return { intervals: [{ low: cond, high: cond }], point: true };
    if (isPlainObject(cond) && !Object.keys(cond)[0]?.startsWith('$'))
      return { intervals: [{ low: cond, high: cond }], point: true };
    if (!isPlainObject(cond)) continue;
    if ('$eq' in cond && isPointValue(cond.$eq)) return { intervals: [{ low: cond.$eq, high: cond.$eq }], point: true };
    if ('$in' in cond && Array.isArray(cond.$in) && cond.$in.length > 0 && cond.$in.every(isPointValue)) {
      const sorted = [...cond.$in].sort(compareValues);
      const distinct = sorted.filter((v, i) => i === 0 || compareValues(sorted[i - 1], v) !== 0);
      return { intervals: distinct.map((v) => ({ low: v, high: v })), point: true };
    }
  }
  for (const cond of conds) {
    if (!isPlainObject(cond)) continue;
    const lowOp = ['$gt', '$gte'].find((op) => op in cond && isPointValue(cond[op]));
    const highOp = ['$lt', '$lte'].find((op) => op in cond && isPointValue(cond[op]));
    if (!lowOp && !highOp) continue;
    const operand = cond[(lowOp ?? highOp)!];
    const ends = bracketEnds(operand);
    // A multikey field may satisfy each side with a different element: use one side only.
    const useHigh = highOp && (!lowOp || !multikey) && canonicalType(cond[highOp]) === canonicalType(operand);
    return {
      intervals: [
        {
          low: lowOp ? cond[lowOp] : ends.low,
          high: useHigh ? cond[highOp!] : ends.high,
          lowExclusive: lowOp === '$gt',
          highExclusive: Boolean(useHigh) && highOp === '$lt',
        },
      ],
      point: false,
    };
  }
  return undefined;
}

interface Candidate {
  index: Index;
  perField: Interval[][];
  points: number;
  score: number;
}

function candidateFor(index: Index, conds: Map<string, unknown[]>): Candidate | undefined {
  const perField: Interval[][] = [];
  let points = 0;
  let combos = 1;
  for (const { path } of index.fields) {
    const c = conds.get(path);
    const found = c ? fieldIntervals(c, index.multikey) : undefined;
    if (!found || combos * found.intervals.length > PLAN_INTERVALS_MAX) break;
    perField.push(found.intervals);
    combos *= found.intervals.length;
    if (!found.point) break;
    points++;
  }
  if (perField.length === 0) return undefined;
  return { index, perField, points, score: perField.length * 2 + points + (index.unique ? 1 : 0) };
}

/**
 * Whether walking the index after its point prefix yields the sort, and in which direction.
 * Single-valued point fields are constant, so the sort may skip them; a field with several
 * points (an exploded `$in`) varies between ranges, so the sort must not name it: the ranges
 * are then merged on the fields after the prefix (`merge`).
 */
function sortCoverage(
  index: Index,
  perField: Interval[][],
  points: number,
  sort: Document | undefined,
): { ordered: boolean; reverse: boolean; merge: boolean } {
  const UNORDERED = { ordered: false, reverse: false, merge: false };
  const prefix = perField.slice(0, points);
  const merge = prefix.some((ivs) => ivs.length > 1);
  const entries = sort ? Object.entries(sort) : [];
  if (entries.length === 0) return { ordered: !merge, reverse: false, merge: false };
  if (index.multikey) return UNORDERED;
  const fixed = new Set(
    index.fields
      .slice(0, points)
      .filter((_, i) => prefix[i]!.length === 1)
      .map((f) => f.path),
  );
  const wanted = entries.filter(([path]) => !fixed.has(path));
  let reverse: boolean | undefined;
  for (const [i, [path, dir]] of wanted.entries()) {
    const field = index.fields[points + i];
    if (!field || field.path !== path) return UNORDERED;
    const same = (toDouble(dir) < 0 ? -1 : 1) === field.direction;
    if (reverse === undefined) reverse = !same;
    else if (reverse === same) return UNORDERED;
  }
  return { ordered: true, reverse: reverse ?? false, merge };
}

/** Cartesian product of per-field intervals as key-space ranges, open past the last field. */
function toRanges(index: Index, perField: Interval[][]): { start: unknown[]; end: unknown[] }[] {
  type Range = { start: unknown[]; end: unknown[]; startExclusive: boolean; endExclusive: boolean };
  let ranges: Range[] = [{ start: [], end: [], startExclusive: false, endExclusive: false }];
  for (const [i, intervals] of perField.entries()) {
    const desc = index.fields[i]!.direction < 0;
    const ordered = desc ? [...intervals].reverse() : intervals;
    const next: Range[] = [];
    for (const r of ranges) {
      for (const iv of ordered) {
        next.push({
          start: [...r.start, desc ? iv.high : iv.low],
          end: [...r.end, desc ? iv.low : iv.high],
          // Only the last bounded field can be a range (a range ends the bounded prefix).
          startExclusive: Boolean(desc ? iv.highExclusive : iv.lowExclusive),
          endExclusive: Boolean(desc ? iv.lowExclusive : iv.highExclusive),
        });
      }
    }
    ranges = next;
  }
  // Unbounded trailing fields: the comparator flips descending fields, so their open ends swap.
  // An exclusive bound (`$gt`, `$lt`) starts after, or ends before, every key equal to it, as
  // mongod's open interval does, instead of walking those keys for the filter to drop.
  const tail = index.fields.slice(perField.length);
  const restStart = tail.map((f) => (f.direction < 0 ? KEY_MAX : KEY_MIN));
  const restEnd = tail.map((f) => (f.direction < 0 ? KEY_MIN : KEY_MAX));
  return ranges.map((r) => ({
    start: r.startExclusive ? [...r.start, ...restEnd, KEY_MAX] : [...r.start, ...restStart, KEY_MIN],
    end: r.endExclusive ? [...r.end, ...restStart, KEY_MIN] : [...r.end, ...restEnd, KEY_MAX],
  }));
}

function findHinted(indexes: Index[], hint: string | Document): Index {
  const found =
    typeof hint === 'string'
      ? indexes.find((i) => i.name === hint)
      : indexes.find((i) => compareValues(i.spec.key, hint) === 0);
  if (!found) throw new CommandError('BadValue', 'hint provided does not correspond to an existing index');
  return found;
}

export function planQuery(
  filter: Document,
  indexes: Index[],
  options: { sort?: Document; hint?: string | Document; collation?: unknown; variables?: PlanVariables },
): Plan {
  const hinted =
    options.hint !== undefined && !(isPlainObject(options.hint) && '$natural' in options.hint)
      ? findHinted(indexes, options.hint)
      : undefined;
  if (options.hint !== undefined && !hinted) return SCAN;
  // Collation-aware string bounds are not built; such queries scan (results stay correct).
  if (options.collation && !hinted) return SCAN;
  const conds = conjunction(filter, options.collation ? undefined : (options.variables ?? {}));
  const pool = hinted ? [hinted] : indexes.filter((i) => i.complete);
  // Score: more bounded fields first, then points, unique, and an order that spares a sort.
  let best: { candidate: Candidate; score: number; ordered: boolean; reverse: boolean; merge: boolean } | undefined;
  for (const index of pool) {
    const c = candidateFor(index, conds);
    if (!c) continue;
    const coverage = sortCoverage(index, c.perField, c.points, options.sort);
    const rangeCount = c.perField.reduce((n, ivs) => n * ivs.length, 1);
    // Ranges after a non-point field overlap in sort order and cannot be merged.
    const mergeable =
      c.perField.slice(c.points).every((ivs) => ivs.length === 1) && rangeCount <= PLAN_EXPLODE_SCANS_MAX;
    const ordered = coverage.ordered && (!coverage.merge || mergeable);
    const score = c.score + (options.sort && ordered ? 3 : 0);
    if (!best || score > best.score)
      best = { candidate: c, score, ordered, reverse: coverage.reverse, merge: coverage.merge && ordered };
  }
  if (best) {
    const { index, perField, points } = best.candidate;
    const plan: Plan = { index, ranges: toRanges(index, perField), ordered: best.ordered, reverse: best.reverse };
    return best.merge ? { ...plan, mergeFrom: points } : plan;
  }
  // No bounds: an index can still serve a sort (or a hint) by walking it whole.
  for (const index of pool) {
    const { ordered, reverse } = sortCoverage(index, [], 0, options.sort);
    if (hinted || (options.sort && ordered && Object.keys(options.sort).length > 0)) {
      return { index, ranges: toRanges(index, []), ordered, reverse };
    }
  }
  return SCAN;
}
