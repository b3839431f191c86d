export { AuditLimits } from './limits.ts';
export { LedgerAudit, type LedgerAuditOptions, type RunNowResult } from './LedgerAudit.ts';
export {
  AUDIT_LEASE_NAME,
  AUDIT_RUNS_COLLECTION,
  AUDIT_STATE_COLLECTION,
  MismatchKind,
  auditRuns,
  auditState,
  ensureAuditIndexes,
  type AuditRunDoc,
  type AuditScope,
  type Mismatch,
} from './model.ts';
export { ledgerAuditTask } from './startup.ts';
export { createAuditTelemetry, type AuditTelemetry } from './telemetry.ts';
