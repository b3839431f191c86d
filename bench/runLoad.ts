// A bounded closed-loop load driver: `concurrency` lanes each run one operation at a time until
// the plan's count or time bound is reached (or every lane reports it is done). Operations that
// started before a bound was hit finish and are counted; nothing is left in flight.

export interface LoadPlan {
  concurrency: number;
  /** Count bound: no more operations than this are started. */
  opsMax: number;
  /** Time bound: no operation starts after this many ms. */
  durationMaxMs: number;
}

/** What one operation reports: an outcome label (a __typename, `error:CODE`), optionally its own latency. */
export interface Step {
  label: string;
  /** When the operation times one part of itself (e.g. the claim of a claim→complete cycle). */
  latencyMs?: number;
  /** This lane has nothing more to do (e.g. NothingToClaim). */
  laneDone?: boolean;
}

export interface LoadRun {
  started: number;
  seconds: number;
  /** Ascending, one per operation. */
  latenciesMs: Float64Array;
  /** How many operations ended with each label. */
  tally: Map<string, number>;
}

export async function runLoad(
  plan: LoadPlan,
  operation: (index: number, lane: number) => Promise<Step>,
): Promise<LoadRun> {
  const latenciesMs = new Float64Array(plan.opsMax);
  const tally = new Map<string, number>();
  let started = 0;
  const startedAtMs = performance.now();
  const deadlineMs = startedAtMs + plan.durationMaxMs;

  const runLane = async (lane: number) => {
    while (started < plan.opsMax && performance.now() < deadlineMs) {
      const index = started++;
      const opStartedAtMs = performance.now();
      const step = await operation(index, lane).catch(
        (error: unknown) => ({ label: `exception:${errorCode(error)}` }) as Step,
      );
      latenciesMs[index] = step.latencyMs ?? performance.now() - opStartedAtMs;
      tally.set(step.label, (tally.get(step.label) ?? 0) + 1);
      if (step.laneDone) return;
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, (_, lane) => runLane(lane)));
  const seconds = (performance.now() - startedAtMs) / 1000;
  return { started, seconds, latenciesMs: latenciesMs.subarray(0, started).sort(), tally };
}

function errorCode(error: unknown): string {
  if (error instanceof Error) return (error as { code?: string }).code ?? error.name;
  return 'unknown';
}
