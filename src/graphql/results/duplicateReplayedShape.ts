// The one answer of every idempotent operation whose key was already decided: the ledger's money
// moves and account openings, and the work items' creations and completions. `original` is the
// first decisive outcome as it was recorded then, so a replay repeats it, never re-derives it.
export interface DuplicateReplayed<Original> {
  kind: 'duplicateReplayed';
  requestId: string;
  firstSeenAt: Date;
  original: Original;
}
