// Walking a plan's index ranges: one after another, or (for an exploded `$in`) side by side,
// merged on the key fields after the point prefix, as mongod's MERGE_SORT over one IXSCAN per
// point. Either way documents come lazily, so a limited read stops after what it needs.
import { KEY_MIN, type Index, type IndexEntry } from './indexes.ts';
import type { Plan } from './planner.ts';

type Range = Plan['ranges'][number];

/** The entries of one range, in walk direction. */
function* rangeEntries(index: Index, { start, end }: Range, reverse: boolean): Generator<IndexEntry> {
  const entries = reverse ? index.tree.entriesReversed(end) : index.tree.entries(start);
  for (const [key] of entries) {
    const past = reverse ? index.compareKeys(key, start) < 0 : index.compareKeys(key, end) > 0;
    if (past) return;
    yield key;
  }
}

/** The record ids of `plan`'s walk over its index, each once, in walk order. */
export function* walkPlan(index: Index, plan: Plan): Generator<number> {
  const ranges = plan.reverse ? [...plan.ranges].reverse() : plan.ranges;
  if (plan.mergeFrom !== undefined && ranges.length > 1) {
    yield* mergeRanges(index, ranges, plan.mergeFrom, plan.reverse);
    return;
  }
  const seen = index.multikey ? new Set<number>() : undefined;
  for (const range of ranges) {
    for (const key of rangeEntries(index, range, plan.reverse)) {
      const id = key[key.length - 1] as number;
      if (seen) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      yield id;
    }
  }
}

/**
 * Merges ranges that differ only in their first `mergeFrom` fields: each head's key is compared
 * with that prefix masked, so the order is the index's on the remaining fields (then record id).
 * Ranges are at most PLAN_EXPLODE_SCANS_MAX, so a linear pick of the next head is cheap.
 */
function* mergeRanges(index: Index, ranges: Range[], mergeFrom: number, reverse: boolean): Generator<number> {
  const masked = (key: IndexEntry): IndexEntry => key.map((v, i) => (i < mergeFrom ? KEY_MIN : v));
  const heads = ranges.map((range) => {
    const walk = rangeEntries(index, range, reverse);
    const first = walk.next();
    return { walk, key: first.done ? undefined : masked(first.value) };
  });
  const sign = reverse ? -1 : 1;
  for (;;) {
    let next: (typeof heads)[number] | undefined;
    for (const head of heads) {
      if (head.key && (!next || sign * index.compareKeys(head.key, next.key!) < 0)) next = head;
    }
    if (!next) return;
    yield next.key![next.key!.length - 1] as number;
    const step = next.walk.next();
    next.key = step.done ? undefined : masked(step.value);
  }
}
