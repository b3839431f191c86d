// One reported line per measurement: name, ops, seconds, ops/s, p50, p99, errors, and the speed
// target with MET/MISSED. A target is reported, never enforced: benchmarks do not fail on time.

export interface Target {
  /** e.g. "≥ 1,000 withdrawals/s at c=32 on 2 cores" */
  text: string;
  met(measured: Measured): boolean;
}

export interface Measured {
  name: string;
  /** Operations that ended as the scenario expects (e.g. WithdrawSuccess, CompleteSuccess). */
  ops: number;
  seconds: number;
  /** Ascending. */
  latenciesMs: Float64Array;
  /** Operations that ended in anything unexpected: another union member, a GraphQL or HTTP error. */
  errors: number;
  target: Target;
  /** Anything else worth a figure, e.g. "conflicts 12". */
  note?: string;
}

export function opsPerSecond(measured: Measured): number {
  return measured.seconds > 0 ? measured.ops / measured.seconds : 0;
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentileMs(sortedMs: Float64Array, fraction: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const rank = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil(fraction * sortedMs.length) - 1));
  return sortedMs[rank]!;
}

export const atLeastOpsPerSecond = (minimum: number, text: string): Target => ({
  text,
  met: (measured) => opsPerSecond(measured) >= minimum,
});

export const p99AtMostMs = (maximumMs: number, text: string): Target => ({
  text,
  met: (measured) => percentileMs(measured.latenciesMs, 0.99) <= maximumMs,
});

const latency = (ms: number): string => (Number.isFinite(ms) ? ms.toFixed(1) : '–').padStart(6);

export function formatMeasured(measured: Measured): string {
  const p50 = percentileMs(measured.latenciesMs, 0.5);
  const p99 = percentileMs(measured.latenciesMs, 0.99);
  const verdict = measured.target.met(measured) ? 'MET' : 'MISSED';
  return [
    measured.name.padEnd(28),
    `${measured.ops.toString().padStart(6)} ops`,
    `${measured.seconds.toFixed(2).padStart(6)} s`,
    `${opsPerSecond(measured).toFixed(0).padStart(6)} ops/s`,
    // A figure that times one whole run (an audit, a catch-up) has no per-request latencies.
    `p50 ${latency(p50)} ms`,
    `p99 ${latency(p99)} ms`,
    `errors ${measured.errors}`,
    ...(measured.note ? [measured.note] : []),
    `| target ${measured.target.text}: ${verdict}`,
  ].join('  ');
}

/** The API's line against the plain driver's on the same load: throughput ratio and p50 gap. */
export interface Comparison {
  kind: 'comparison';
  /** How the ratio reads, `api/raw` unless said. */
  label?: string;
  name: string;
  api: Measured;
  raw: Measured;
  target: { text: string; met(api: Measured, raw: Measured): boolean };
}

export type Line = Measured | Comparison;

export function apiToRawRatio(api: Measured, raw: Measured): number {
  const rawRate = opsPerSecond(raw);
  return rawRate > 0 ? opsPerSecond(api) / rawRate : 0;
}

export function formatLine(line: Line): string {
  if (!('kind' in line)) return formatMeasured(line);
  const { api, raw } = line;
  const p50GapMs = percentileMs(api.latenciesMs, 0.5) - percentileMs(raw.latenciesMs, 0.5);
  return [
    line.name.padEnd(28),
    `${line.label ?? 'api/raw'} ${(apiToRawRatio(api, raw) * 100).toFixed(0).padStart(3)}%`,
    `(${opsPerSecond(api).toFixed(0)} / ${opsPerSecond(raw).toFixed(0)} ops/s)`,
    `p50 difference ${p50GapMs.toFixed(2)} ms`,
    `| target ${line.target.text}: ${line.target.met(api, raw) ? 'MET' : 'MISSED'}`,
  ].join('  ');
}

/** One invariant checked after a run (the API's ledger and work items, or the raw baseline's). */
export interface InvariantCheck {
  name: string;
  holds: boolean;
  detail: string;
}
