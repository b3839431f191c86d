import type { BenchContext, Mode } from './context.ts';
import type { Line } from './measured.ts';

/** A named scenario; `run` sets up what it needs (untimed), then measures one or more lines. */
export interface Scenario {
  name: string;
  /** The progress line printed before it starts. */
  describe(mode: Mode): string;
  run(context: BenchContext): Promise<Line[]>;
}
