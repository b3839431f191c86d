// Choosing how to read a collection for a filter and sort: walk the bounds of the index whose
// leading fields the filter's top-level AND constrains best, or scan. Bounds only need to be a
// superset of the matching documents, since every fetched document is re-checked by the full
// filter; a plan is "ordered" when the walk already yields the requested sort order, which lets
// a limited query stop early.
import { CommandError } from '../errors.ts';
import { canonicalType, compareValues } from './compare.ts';
import { BracketBound, KEY_MAX, KEY_MIN, type Index } from './indexes.ts';
import { isRegexValue } from './regex.ts';
import { toDouble } from './numeric.ts';
import type { Document } from './types.ts';

/** Most point intervals ($in values times fields) one plan may walk before using fewer fields. */
export const PLAN_INTERVALS_MAX = 500;

/** Inclusive bounds on one field, in value order. */
interface Interval {
  low: unknown;
  high: unknown;
}

export interface Plan {
  index?: Index;
  /** Key-space ranges to walk, in walk order. */
  ranges: { start: unknown[]; end: unknown[] }[];
  /** The walk yields documents in the requested sort order. */
  ordered: boolean;
  /** Walk the index backwards (the sort is the index order reversed). */
  reverse: boolean;
}

const SCAN: Plan = { ranges: [], ordered: false, reverse: false };

const isPlainObject = (v: unknown): v is Document =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/** The conditions on each path of the filter's top-level AND (including nested $and). */
function conjunction(filter: Document, out = new Map<string, unknown[]>()): Map<string, unknown[]> {
  for (const [key, cond] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(cond)) {
      for (const sub of cond) if (isPlainObject(sub)) conjunction(sub, out);
    } else if (!key.startsWith('$')) {
      out.set(key, [...(out.get(key) ?? []), cond]);
    }
  }
  return out;
}

/**
 * A value usable as an exact index point. Arrays and regexes need the full filter. null is a
 * point too: missing fields are indexed as null, so the null key holds every candidate.
 */
function isPointValue(v: unknown): boolean {
  return v !== undefined && !Array.isArray(v) && !isRegexValue(v) && !(isPlainObject(v) && Object.keys(v)[0]?.startsWith('$'));
}

function bracketEnds(v: unknown): Interval {
  const rank = canonicalType(v);
  return { low: new BracketBound(rank, -1), high: new BracketBound(rank, 1) };
}

/** Intervals for one field's conditions; undefined when they give no usable bound. */
function fieldIntervals(conds: unknown[], multikey: boolean): { intervals: Interval[]; point: boolean } | undefined {
  for (const cond of conds) {
    if (isPointValue(cond) && !isPlainObject(cond)) return { intervals: [{ low: cond, high: cond }], point: true };
    if (isPlainObject(cond) && !Object.keys(cond)[0]?.startsWith('$')) return { intervals: [{ low: cond, high: cond }], point: true };
    if (!isPlainObject(cond)) continue;
    if ('$eq' in cond && isPointValue(cond.$eq)) return { intervals: [{ low: cond.$eq, high: cond.$eq }], point: true };
    if ('$in' in cond && Array.isArray(cond.$in) && cond.$in.length > 0 && cond.$in.every(isPointValue)) {
      const sorted = [...cond.$in].sort(compareValues);
      return { intervals: sorted.map((v) => ({ low: v, high: v })), point: sorted.length === 1 };
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
      intervals: [{ low: lowOp ? cond[lowOp] : ends.low, high: useHigh ? cond[highOp!] : ends.high }],
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

/** How many leading sort fields the index order provides after its point prefix, and direction. */
function sortCoverage(index: Index, points: number, sort: Document | undefined): { ordered: boolean; reverse: boolean } {
  const entries = sort ? Object.entries(sort) : [];
  if (entries.length === 0) return { ordered: true, reverse: false };
  if (index.multikey) return { ordered: false, reverse: false };
  const pointFields = new Set(index.fields.slice(0, points).map((f) => f.path));
  const wanted = entries.filter(([path]) => !pointFields.has(path));
  let reverse: boolean | undefined;
  for (const [i, [path, dir]] of wanted.entries()) {
    const field = index.fields[points + i];
    if (!field || field.path !== path) return { ordered: false, reverse: false };
    const same = (toDouble(dir) < 0 ? -1 : 1) === field.direction;
    if (reverse === undefined) reverse = !same;
    else if (reverse === same) return { ordered: false, reverse: false };
  }
  return { ordered: true, reverse: reverse ?? false };
}

/** Cartesian product of per-field intervals as key-space ranges, open past the last field. */
function toRanges(index: Index, perField: Interval[][]): { start: unknown[]; end: unknown[] }[] {
  let ranges: { start: unknown[]; end: unknown[] }[] = [{ start: [], end: [] }];
  for (const [i, intervals] of perField.entries()) {
    const desc = index.fields[i]!.direction < 0;
    const ordered = desc ? [...intervals].reverse() : intervals;
    const next: typeof ranges = [];
    for (const r of ranges) {
      for (const iv of ordered) {
        next.push({ start: [...r.start, desc ? iv.high : iv.low], end: [...r.end, desc ? iv.low : iv.high] });
      }
    }
    ranges = next;
  }
  // Unbounded trailing fields: the comparator flips descending fields, so their open ends swap.
  const tail = index.fields.slice(perField.length);
  const restStart = tail.map((f) => (f.direction < 0 ? KEY_MAX : KEY_MIN));
  const restEnd = tail.map((f) => (f.direction < 0 ? KEY_MIN : KEY_MAX));
  return ranges.map((r) => ({
    start: [...r.start, ...restStart, KEY_MIN],
    end: [...r.end, ...restEnd, KEY_MAX],
  }));
}

function findHinted(indexes: Index[], hint: string | Document): Index {
  const found = typeof hint === 'string'
    ? indexes.find((i) => i.name === hint)
    : indexes.find((i) => compareValues(i.spec.key, hint) === 0);
  if (!found) throw new CommandError('BadValue', 'hint provided does not correspond to an existing index');
  return found;
}

export function planQuery(
  filter: Document,
  indexes: Index[],
  options: { sort?: Document; hint?: string | Document; collation?: unknown },
): Plan {
  const hinted = options.hint !== undefined && !(isPlainObject(options.hint) && '$natural' in options.hint)
    ? findHinted(indexes, options.hint)
    : undefined;
  if (options.hint !== undefined && !hinted) return SCAN;
  // Collation-aware string bounds are not built; such queries scan (results stay correct).
  if (options.collation && !hinted) return SCAN;
  const conds = conjunction(filter);
  const pool = hinted ? [hinted] : indexes.filter((i) => i.complete);
  // Score: more bounded fields first, then points, unique, and an order that spares a sort.
  let best: { candidate: Candidate; score: number; ordered: boolean; reverse: boolean } | undefined;
  for (const index of pool) {
    const c = candidateFor(index, conds);
    if (!c) continue;
    const coverage = sortCoverage(index, c.points, options.sort);
    const ordered = coverage.ordered && !c.perField.some((ivs) => ivs.length > 1);
    const score = c.score + (options.sort && ordered ? 3 : 0);
    if (!best || score > best.score) best = { candidate: c, score, ordered, reverse: coverage.reverse };
  }
  if (best) {
    const { index, perField } = best.candidate;
    return { index, ranges: toRanges(index, perField), ordered: best.ordered, reverse: best.reverse };
  }
  // No bounds: an index can still serve a sort (or a hint) by walking it whole.
  for (const index of pool) {
    const { ordered, reverse } = sortCoverage(index, 0, options.sort);
    if (hinted || (options.sort && ordered && Object.keys(options.sort).length > 0)) {
      return { index, ranges: toRanges(index, []), ordered, reverse };
    }
  }
  return SCAN;
}
