import type { Collection, Document } from 'mongodb';
import type { EntryDoc } from '../ledger/index.ts';
import {
  checkBalances,
  checkClosedAccounts,
  checkHolds,
  checkPayouts,
  checkRequests,
  checkReversals,
  checkTransfers,
  type AuditReaders,
} from './checks.ts';
import type { AuditScope, Mismatch, MismatchKind } from './model.ts';

// One audit run: pages of accounts and entries through the checks, the lease renewed after each
// page (a run whose lease is lost stops, and its findings are not published).

export interface RunLimits {
  pageSizeMax: number;
  recheckDelayMs: number;
  pendingRequestMaxMs: number;
  mismatchesStoredMax: number;
}

export interface RunPlan {
  scope: AuditScope;
  /** The database clock when the run started. */
  now: Date;
  /** Entries stamped from here are checked (incremental); null: every entry (full). */
  from: Date | null;
  /** Entries stamped from here on wait for the next run (they may still be settling). */
  until: Date;
}

export interface RunFindings {
  accountsChecked: number;
  entriesChecked: number;
  requestsChecked: number;
  mismatchCount: number;
  mismatchCounts: Partial<Record<MismatchKind, number>>;
  mismatches: Mismatch[];
}

export interface RunDeps {
  readers: AuditReaders;
  limits: RunLimits;
  /** Renews the lease after each page; false stops the run. */
  stillHolding: () => Promise<boolean>;
}

class Findings implements RunFindings {
  accountsChecked = 0;
  entriesChecked = 0;
  requestsChecked = 0;
  mismatchCount = 0;
  mismatchCounts: Partial<Record<MismatchKind, number>> = {};
  mismatches: Mismatch[] = [];
  constructor(private readonly storedMax: number) {}
  add(found: readonly Mismatch[]): void {
    for (const mismatch of found) {
      this.mismatchCount++;
      this.mismatchCounts[mismatch.kind] = (this.mismatchCounts[mismatch.kind] ?? 0) + 1;
      if (this.mismatches.length < this.storedMax) this.mismatches.push(mismatch);
    }
  }
  plain(): RunFindings {
    const { accountsChecked, entriesChecked, requestsChecked, mismatchCount, mismatchCounts, mismatches } = this;
    return { accountsChecked, entriesChecked, requestsChecked, mismatchCount, mismatchCounts, mismatches };
  }
}

/** Pages of `filter` in (createdAt, _id) order, hinted on `index`. */
async function* entryPages(
  entries: Collection<EntryDoc>,
  filter: Document,
  index: Document,
  pageSizeMax: number,
): AsyncGenerator<EntryDoc[]> {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const page = (extra: Document, n: number) =>
      entries
        .find({ ...filter, ...extra }, { hint: index })
        .sort({ createdAt: 1, _id: 1 })
        .limit(n)
        .toArray();
    let docs: EntryDoc[];
    if (after === null) docs = await page({}, pageSizeMax);
    else {
      const sameTime = await page({ createdAt: after.createdAt, _id: { $gt: after.id } }, pageSizeMax);
      docs =
        sameTime.length === pageSizeMax
          ? sameTime
          : [
              ...sameTime,
              ...(await page(
                { createdAt: { $gt: after.createdAt, ...filter['createdAt'] } },
                pageSizeMax - sameTime.length,
              )),
            ];
    }
    if (docs.length === 0) return;
    yield docs;
    const last = docs.at(-1) as EntryDoc;
    after = { createdAt: last.createdAt, id: last._id };
  }
}

/** Returns the findings, or null when the lease was lost on the way. */
export async function runAudit(deps: RunDeps, plan: RunPlan): Promise<RunFindings | null> {
  const { readers, limits } = deps;
  const findings = new Findings(limits.mismatchesStoredMax);
  const settled = { $lt: plan.until };

  if (plan.scope === 'full') {
    // Every account, by _id.
    let afterId: string | null = null;
    for (;;) {
      const page = await readers.accounts
        .find(afterId === null ? {} : { _id: { $gt: afterId } }, { projection: { _id: 1 } })
        .sort({ _id: 1 })
        .limit(limits.pageSizeMax)
        .toArray();
      if (page.length === 0) break;
      findings.add(
        await checkBalances(
          readers,
          page.map((account) => account._id),
          limits.recheckDelayMs,
        ),
      );
      findings.add(
        await checkHolds(
          readers,
          page.map((account) => account._id),
          limits.recheckDelayMs,
        ),
      );
      findings.add(
        await checkClosedAccounts(
          readers,
          page.map((account) => account._id),
        ),
      );
      findings.accountsChecked += page.length;
      afterId = (page.at(-1) as { _id: string })._id;
      if (!(await deps.stillHolding())) return null;
    }
    // Every settled transfer leg and withdrawal, kind by kind on the (kind, createdAt, _id) index.
    for (const kind of ['transferOut', 'transferIn', 'withdrawal', 'depositReversal'] as const) {
      for await (const page of entryPages(
        readers.entries,
        { kind, createdAt: settled },
        { kind: 1, createdAt: 1, _id: 1 },
        limits.pageSizeMax,
      )) {
        findings.add(await checkTransfers(readers, page));
        findings.add(await checkPayouts(readers, page));
        findings.add(await checkReversals(readers, page, limits.recheckDelayMs));
        findings.entriesChecked += page.length;
        if (!(await deps.stillHolding())) return null;
      }
    }
  } else {
    // Entries stamped in [from, until): their accounts' balances, their transfer pairs and payouts.
    const checked = new Set<string>();
    const window = plan.from === null ? settled : { $gte: plan.from, ...settled };
    for await (const page of entryPages(
      readers.entries,
      { createdAt: window },
      { createdAt: 1, _id: 1 },
      limits.pageSizeMax,
    )) {
      const fresh = [...new Set(page.map((entry) => entry.accountId))].filter((id) => !checked.has(id));
      for (const id of fresh) checked.add(id);
      findings.add(await checkBalances(readers, fresh, limits.recheckDelayMs));
      findings.add(await checkHolds(readers, fresh, limits.recheckDelayMs));
      findings.add(await checkClosedAccounts(readers, fresh));
      findings.add(await checkTransfers(readers, page));
      findings.add(await checkReversals(readers, page, limits.recheckDelayMs));
      findings.add(await checkPayouts(readers, page));
      findings.accountsChecked += fresh.length;
      findings.entriesChecked += page.length;
      if (!(await deps.stillHolding())) return null;
    }
  }

  const requests = await checkRequests(readers, plan.now, limits.pendingRequestMaxMs, limits.mismatchesStoredMax);
  findings.requestsChecked = requests.checked;
  findings.add(requests.mismatches);
  return findings.plain();
}
