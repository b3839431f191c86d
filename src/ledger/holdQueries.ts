import type { Document } from 'mongodb';
import { encodeCursor } from './cursor.ts';
import { expired, unexpired } from './holdRules.ts';
import { holdSnapshot } from './holdSnapshots.ts';
import { type HoldCollections, type HoldDoc, HoldIndex, HoldStatus } from './holdModel.ts';
import type { HoldsPageInput } from './inputs.ts';
import type { Page } from './queries.ts';
import type { HoldSnapshot } from './results.ts';

// Reporting reads of holds (reporting collections: any member, majority-committed). A pending hold
// past its expiry reads as EXPIRED on the serving member's clock ($$NOW), whether or not the
// sweeper has released it yet (H3): no reader ever sees it as capturable.

/** The status a reader sees: EXPIRED for a pending hold past `expiresAt` on the database clock. */
const effectiveStatus: Document = {
  $cond: [
    { $and: [{ $eq: ['$status', HoldStatus.PENDING] }, { $lte: ['$expiresAt', '$$NOW'] }] },
    HoldStatus.EXPIRED,
    '$status',
  ],
};

function snapshotOf(doc: HoldDoc): HoldSnapshot {
  return holdSnapshot({
    id: doc._id,
    accountId: doc.accountId,
    currency: doc.currency,
    amount: doc.amount,
    capturedAmount: doc.capturedAmount,
    status: doc.status,
    expiresAt: doc.expiresAt,
  });
}

export async function holdById(collections: HoldCollections, id: string): Promise<HoldSnapshot | null> {
  const [doc] = await collections.holds
    .aggregate<HoldDoc>([{ $match: { _id: id } }, { $set: { status: effectiveStatus } }])
    .toArray();
  return doc ? snapshotOf(doc) : null;
}

/** What each status filter matches, as readers see statuses. */
function statusFilter(status: HoldsPageInput['status']): Document {
  switch (status) {
    case null:
      return {};
    case HoldStatus.PENDING:
      return { status: HoldStatus.PENDING, ...unexpired };
    case HoldStatus.EXPIRED:
      return { $or: [{ status: HoldStatus.EXPIRED }, { status: HoldStatus.PENDING, ...expired }] };
    default:
      return { status };
  }
}

/** One account's holds, newest first, on the (accountId, status, createdAt, _id) or (accountId, createdAt, _id) index. */
export async function listHolds(collections: HoldCollections, page: HoldsPageInput): Promise<Page<HoldSnapshot>> {
  const clauses: Document[] = [{ accountId: page.accountId }, statusFilter(page.status)];
  if (page.after != null) {
    const split = page.after.indexOf(':');
    const createdAt = new Date(Number(page.after.slice(0, split)));
    const id = page.after.slice(split + 1);
    clauses.push({ $or: [{ createdAt: { $lt: createdAt } }, { createdAt, _id: { $lt: id } }] });
  }
  const docs = await collections.holds
    .aggregate<HoldDoc>(
      [
        { $match: { $and: clauses } },
        { $sort: { createdAt: -1, _id: -1 } },
        { $limit: page.first + 1 },
        { $set: { status: effectiveStatus } },
      ],
      { hint: page.status === null ? HoldIndex.byAccount : HoldIndex.byAccountStatus },
    )
    .toArray();
  const items = docs.slice(0, page.first);
  const tail = items.at(-1);
  return {
    items: items.map(snapshotOf),
    endCursor: tail === undefined ? null : encodeCursor('hold', `${tail.createdAt.getTime()}:${tail._id}`),
    hasNextPage: docs.length > page.first,
  };
}
