// The soak's targets, judged from its samples (issue 42 item 3): after warm-up, RSS and heap flat
// (growth at most 5% over the judged window: the last 40 minutes of an hour), latency p99 flat,
// no error and nothing lost. A short run judges the same way over its last two thirds.

export interface SoakSample {
  /** Seconds since the workload started. */
  t: number;
  apiRssMb: number[];
  apiHeapMb: number[];
  apiHandles: number[];
  apiLoopDelayP99Ms: number[];
  engineRssMb: number[];
  /** The members' heap and event-loop delay (the emulator's serverStatus; absent on mongod: -1). */
  engineHeapMb: number[];
  engineHandles: number[];
  engineLoopDelayP99Ms: number[];
  /** Calls that ended in the last interval. */
  calls: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  oplogWindowSeconds: number;
}

export interface SoakTotals {
  calls: number;
  errors: number;
  /** Acknowledged writes the final check did not find once (money moves, holds, work items). */
  lost: number;
  /** The final check's findings, each a line. */
  violations: string[];
}

export interface Verdict {
  ok: boolean;
  lines: string[];
}

/** How much the judged series may grow. */
export const GROWTH_MAX = 0.05;
/** p99 is flat when the window's last quarter is within this factor of its first quarter (or within P99_SLACK_MS of it). */
export const P99_FACTOR_MAX = 1.5;
export const P99_SLACK_MS = 50;
/** The judged window of an hour-long run: its last 40 minutes (the first 20 are warm-up). */
const WINDOW_OF_AN_HOUR_S = 40 * 60;

/** The last 40 minutes of a run of an hour or more; of a shorter run, its last two thirds. */
export function judgedWindow(samples: readonly SoakSample[]): SoakSample[] {
  const end = samples.at(-1)?.t ?? 0;
  const length = end >= 3_600 ? WINDOW_OF_AN_HOUR_S : (end * 2) / 3;
  return samples.filter((s) => s.t >= end - length);
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Growth of one series over the window: the mean of its last quarter against the mean of its
 * first quarter (a quarter, not one sample: a garbage collection between two samples is noise).
 */
export function growth(values: readonly number[]): number {
  const quarter = Math.max(1, Math.floor(values.length / 4));
  const first = mean(values.slice(0, quarter));
  const last = mean(values.slice(-quarter));
  return first <= 0 ? 0 : last / first - 1;
}

export function judge(samples: readonly SoakSample[], totals: SoakTotals): Verdict {
  const lines: string[] = [];
  let ok = true;
  const window = judgedWindow(samples);
  if (window.length < 4)
    return { ok: false, lines: [`too few samples to judge (${window.length} in the window; run longer)`] };
  const from = window[0]!.t;
  const to = window.at(-1)!.t;
  lines.push(`judged window: ${Math.round(from)} s to ${Math.round(to)} s (${window.length} samples)`);
  const series: Array<[string, (s: SoakSample) => number[]]> = [
    ['API RSS', (s) => s.apiRssMb],
    ['API heap', (s) => s.apiHeapMb],
    ['engine RSS', (s) => s.engineRssMb],
    ['engine heap', (s) => s.engineHeapMb],
  ];
  for (const [name, pick] of series) {
    const width = pick(window[0]!).length;
    for (let i = 0; i < width; i++) {
      const values = window.map((s) => pick(s)[i]!).filter((v) => v >= 0);
      if (values.length === 0) continue;
      const g = growth(values);
      const pass = g <= GROWTH_MAX;
      ok &&= pass;
      lines.push(
        `${pass ? 'PASS' : 'FAIL'} ${name} ${i}: ${values[0]!.toFixed(1)} -> ${values.at(-1)!.toFixed(1)} MB, growth ${(g * 100).toFixed(1)}% (target <= ${GROWTH_MAX * 100}%)`,
      );
    }
  }
  const quarter = Math.max(1, Math.floor(window.length / 4));
  const p99First = Math.max(...window.slice(0, quarter).map((s) => s.p99Ms));
  const p99Last = Math.max(...window.slice(-quarter).map((s) => s.p99Ms));
  const p99Flat = p99Last <= Math.max(p99First * P99_FACTOR_MAX, p99First + P99_SLACK_MS);
  ok &&= p99Flat;
  lines.push(
    `${p99Flat ? 'PASS' : 'FAIL'} latency p99: ${p99First.toFixed(0)} ms in the window's first quarter, ${p99Last.toFixed(0)} ms in its last (target: at most x${P99_FACTOR_MAX} or +${P99_SLACK_MS} ms)`,
  );
  const noErrors = totals.errors === 0;
  ok &&= noErrors;
  lines.push(`${noErrors ? 'PASS' : 'FAIL'} errors: ${totals.errors} of ${totals.calls} calls (target 0)`);
  const noneLost = totals.lost === 0 && totals.violations.length === 0;
  ok &&= noneLost;
  lines.push(
    `${noneLost ? 'PASS' : 'FAIL'} lost: ${totals.lost} (target 0)${totals.violations.length ? `; ${totals.violations.length} findings:\n  ${totals.violations.slice(0, 20).join('\n  ')}` : ''}`,
  );
  lines.push(ok ? 'VERDICT: PASS' : 'VERDICT: FAIL');
  return { ok, lines };
}
