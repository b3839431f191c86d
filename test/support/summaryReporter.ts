import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files and tests the run ends with. */
const SLOWEST_FILES = 15;
const SLOWEST_TESTS = 10;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
/** An error's first line, cut to a width a log page keeps. */
const firstLine = (message: string | undefined): string => (message ?? '(no message)').split('\n')[0]!.slice(0, 200);

/**
 * Ends every run with where its time went (the slowest files with their import time and group,
 * the slowest tests, each group's wall time, the run's wall time beside the files' summed time,
 * the machine's load average), the failed tests each with its error's first line,
 * and one plain line, `tests: N passed, M failed, K skipped`, that any CI can read without
 * knowing vitest's own summary format.
 */
export default class SummaryReporter implements Reporter {
  private runStartedAt = performance.now();
  /** The machine's 1-minute load average when the run started: wall times read against it. */
  private loadAtStart = loadavg()[0]!;
  /** Per group (vitest project): when its first file started and its last one ended, on this process's clock. */
  private readonly groupSpans = new Map<string, { start: number; end: number }>();

  onTestRunStart(): void {
    this.runStartedAt = performance.now();
    this.loadAtStart = loadavg()[0]!;
    this.groupSpans.clear();
  }

  onTestModuleStart(module: TestModule): void {
    const group = module.project.name || 'default';
    const now = performance.now();
    const span = this.groupSpans.get(group);
    if (span === undefined) this.groupSpans.set(group, { start: now, end: now });
    else span.start = Math.min(span.start, now);
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.groupSpans.get(module.project.name || 'default');
    if (span !== undefined) span.end = Math.max(span.end, performance.now());
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const wallMs = performance.now() - this.runStartedAt;
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const files: Array<{ name: string; group: string; totalMs: number; importMs: number }> = [];
    const tests: Array<{ name: string; ms: number }> = [];
    const failures: string[] = [];
    for (const module of testModules) {
      const all = [...module.children.allTests()];
      for (const test of all) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') {
          counts.failed += 1;
          failures.push(
            `${module.relativeModuleId} > ${test.fullName}: ${firstLine(test.result().errors?.[0]?.message)}`,
          );
        } else counts.skipped += 1;
        tests.push({ name: `${module.relativeModuleId} > ${test.fullName}`, ms: test.diagnostic()?.duration ?? 0 });
      }
      // A file that failed to load has no tests to count, but it is a failure all the same.
      if (all.length === 0 && module.state() === 'failed') {
        counts.failed += 1;
        failures.push(`${module.relativeModuleId}: ${firstLine(module.errors()[0]?.message)} (the file did not load)`);
      }
      const d = module.diagnostic();
      const importMs = d.setupDuration + d.collectDuration;
      files.push({
        name: module.relativeModuleId,
        group: module.project.name || 'default',
        importMs,
        totalMs: d.environmentSetupDuration + d.prepareDuration + importMs + d.duration,
      });
    }
    counts.failed += unhandledErrors.length;
    for (const error of unhandledErrors)
      failures.push(`unhandled: ${firstLine((error as Error | undefined)?.message)}`);

    const lines: string[] = ['', `slowest files (of ${files.length}; import time in brackets):`];
    for (const file of [...files].sort((a, b) => b.totalMs - a.totalMs).slice(0, SLOWEST_FILES)) {
      lines.push(
        `  ${seconds(file.totalMs).padStart(8)}  ${file.name}  [${file.group}] (import ${seconds(file.importMs)})`,
      );
    }
    lines.push('slowest tests:');
    for (const test of [...tests].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_TESTS)) {
      lines.push(`  ${seconds(test.ms).padStart(8)}  ${test.name}`);
    }
    const sum = (list: typeof files, pick: (f: (typeof files)[number]) => number) =>
      list.reduce((total, f) => total + pick(f), 0);
    for (const [group, span] of this.groupSpans) {
      const inGroup = files.filter((f) => f.group === group);
      lines.push(
        `group ${group}: ${inGroup.length} files, ${seconds(span.end - span.start)} wall, ${seconds(sum(inGroup, (f) => f.totalMs))} summed over its files (import ${seconds(sum(inGroup, (f) => f.importMs))})`,
      );
    }
    lines.push(
      `run: ${seconds(wallMs)} wall, ${seconds(sum(files, (f) => f.totalMs))} summed over ${files.length} files (import ${seconds(sum(files, (f) => f.importMs))})`,
    );
    // Other work on the machine stretches every wall time above; the load says how much there was.
    lines.push(
      `load average (1 min): ${this.loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end, on ${availableParallelism()} cores`,
    );
    // Last but one, so that a log cut in the middle (a CI page) still names what failed.
    if (failures.length > 0) lines.push('failed:', ...failures.map((f) => `  ${f}`));
    lines.push(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
