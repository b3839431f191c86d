// Roles and their rights: the roles table of docs/design.md, in one place. Every root field of the
// schema names exactly one right (see `Allow`), and a role may use the field when the right lists
// it. Deny by default: a field without a right does not build (see `assertEveryRootFieldHasRight`).

export const ROLES = ['dashboard', 'ops', 'worker', 'service', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Right → roles allowed. Mirrors docs/design.md's roles table row by row. */
export const RIGHTS = Object.freeze({
  /** Every query. */
  query: ['dashboard', 'ops', 'worker', 'service', 'admin'],
  /** Every subscription except `workItemStatusChanged`. */
  subscribe: ['ops', 'service', 'admin'],
  /** `workItemStatusChanged`, the one subscription workers may open. */
  subscribeWorkItemStatus: ['ops', 'worker', 'service', 'admin'],
  /** `openAccount`, `deposit`, `withdraw`, `transfer`, `submitMoves`, holds, `reverseMove`, `closeAccount`. */
  moveMoney: ['service', 'admin'],
  /** `createWorkItem`. */
  createWork: ['service', 'admin'],
  /** `scheduleWork`, `unscheduleWork`. */
  scheduleWork: ['service', 'admin'],
  /** `claimWorkItem`, `claimWorkItems`, `heartbeatWorkItem(s)`, `completeWorkItem(s)`. */
  processWork: ['worker', 'service', 'admin'],
  /** `requeueWorkItem`. */
  requeueWork: ['ops', 'admin'],
  /** `ledgerAudit`: what the ledger audit found (dashboards and ops act on it). */
  readAudit: ['dashboard', 'ops', 'admin'],
  /** `runLedgerAudit`. */
  runAudit: ['admin'],
} as const satisfies Record<string, readonly Role[]>);

export type Right = keyof typeof RIGHTS;

/** `Rights.moveMoney === 'moveMoney'`: a typo in a resolver is a type error, not an open door. */
export const Rights = Object.freeze(
  Object.fromEntries(Object.keys(RIGHTS).map((right) => [right, right])) as { [R in Right]: R },
);

export function isRight(value: unknown): value is Right {
  return typeof value === 'string' && Object.hasOwn(RIGHTS, value);
}

export function roleHasRight(role: Role, right: Right): boolean {
  return (RIGHTS[right] as readonly Role[]).includes(role);
}

/** Roles that may open at least one subscription; others are refused at WebSocket connect. */
export function roleMaySubscribe(role: Role): boolean {
  return roleHasRight(role, 'subscribe') || roleHasRight(role, 'subscribeWorkItemStatus');
}

/** The roles that may open some subscription, for refusals that say who may. */
export function subscribingRoles(): Role[] {
  return ROLES.filter(roleMaySubscribe);
}
