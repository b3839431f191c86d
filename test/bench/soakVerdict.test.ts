// The soak's judge (bench/soak/verdict.ts): which samples it judges, and that each target fails
// when its series breaks it, alone.
import { describe, expect, it } from 'vitest';
import { judge, judgedWindow, type SoakSample } from '../../bench/soak/verdict.ts';

/** A run of `minutes` sampled every 10 s, flat unless `change` says otherwise. */
function run(minutes: number, change: (t: number, sample: SoakSample) => void = () => undefined): SoakSample[] {
  return Array.from({ length: (minutes * 60) / 10 + 1 }, (_, i) => {
    const t = i * 10;
    const sample: SoakSample = {
      t,
      apiRssMb: [200, 210],
      apiHeapMb: [80, 82],
      apiHandles: [40, 41],
      apiLoopDelayP99Ms: [20, 22],
      engineRssMb: [150, 150, 150],
      engineHeapMb: [60, 60, 60],
      engineHandles: [30, 30, 30],
      engineLoopDelayP99Ms: [15, 15, 15],
      calls: 200,
      p50Ms: 20,
      p99Ms: 120,
      errors: 0,
      oplogWindowSeconds: t,
    };
    change(t, sample);
    return sample;
  });
}

const clean = { calls: 1_000, errors: 0, lost: 0, violations: [] };

describe('the soak verdict', () => {
  it('judges the last 40 minutes of an hour, and the last two thirds of a short run', () => {
    expect(judgedWindow(run(60))[0]!.t).toBe(20 * 60);
    expect(judgedWindow(run(3))[0]!.t).toBe(60);
  });

  it('passes a flat run with no error and nothing lost', () => {
    const verdict = judge(run(60), clean);
    expect(verdict.ok).toBe(true);
    expect(verdict.lines.at(-1)).toBe('VERDICT: PASS');
  });

  it('forgives growth during warm-up, and fails 10% of growth after it', () => {
    const warmUp = run(60, (t, s) => {
      if (t < 20 * 60) s.apiRssMb[0] = 100 + t / 12;
    });
    expect(judge(warmUp, clean).ok).toBe(true);
    const leak = run(60, (t, s) => void (s.engineHeapMb[1] = 60 * (1 + (0.1 * Math.max(0, t - 1_200)) / 2_400)));
    const verdict = judge(leak, clean);
    expect(verdict.ok).toBe(false);
    expect(verdict.lines.filter((l) => l.startsWith('FAIL'))).toEqual([
      expect.stringMatching(/^FAIL engine heap 1: 60.0 -> 66.0 MB, growth [5-9]\.\d%/),
    ]);
  });

  it('fails a p99 that climbs, and not one that wobbles within its slack', () => {
    expect(
      judge(
        run(60, (t, s) => void (s.p99Ms = 120 + (t > 3_000 ? 200 : 0))),
        clean,
      ).ok,
    ).toBe(false);
    expect(
      judge(
        run(60, (t, s) => void (s.p99Ms = 120 + (t % 20 === 0 ? 40 : 0))),
        clean,
      ).ok,
    ).toBe(true);
  });

  it('fails on one error and on one lost write', () => {
    expect(judge(run(60), { ...clean, errors: 1 }).ok).toBe(false);
    expect(judge(run(60), { ...clean, lost: 1, violations: ['deposit k: 0 entries, expected 1'] }).ok).toBe(false);
  });
});
