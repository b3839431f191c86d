import type { Measured, Target } from './measured.ts';
import { runLoad, type LoadPlan, type Step } from './runLoad.ts';

export interface Measurement {
  name: string;
  target: Target;
  plan: LoadPlan;
  /** The label an operation that did its job ends with; these are the line's ops. */
  expected: string;
  /** Labels that are lawful but not ops (ConflictLost, NothingToClaim); anything else is an error. */
  tolerated?: readonly string[];
  operation: (index: number, lane: number) => Promise<Step>;
}

/** Runs the load and turns its tally into one reported line. */
export async function measure(measurement: Measurement): Promise<Measured & { tally: Map<string, number> }> {
  const run = await runLoad(measurement.plan, measurement.operation);
  const ops = run.tally.get(measurement.expected) ?? 0;
  const tolerated = (measurement.tolerated ?? []).reduce((sum, label) => sum + (run.tally.get(label) ?? 0), 0);
  return {
    name: measurement.name,
    ops,
    seconds: run.seconds,
    latenciesMs: run.latenciesMs,
    errors: run.started - ops - tolerated,
    target: measurement.target,
    tally: run.tally,
  };
}
