// The console's refresh period (src/console/refresh.ts): 3 s unless the page's address asks for
// `?refresh=<seconds>`, kept within its bounds, the default for anything that is not a number; and
// polls that never overlap: the next starts a period after the last one settled, even when a poll
// takes longer than the period (the page's setInterval used to start the next one regardless).
import { describe, expect, it } from 'vitest';
import {
  REFRESH_DEFAULT_MS,
  REFRESH_MAX_MS,
  REFRESH_MIN_MS,
  refreshEvery,
  refreshPeriodMs,
  refreshPeriodText,
} from '../../src/console/refresh.ts';
import { waitFor } from '../support/waiting.ts';

describe("the console's refresh period", () => {
  it('is 3 s, or the seconds the address asks for, within its bounds', () => {
    expect(REFRESH_DEFAULT_MS).toBe(3_000);
    expect(refreshPeriodMs('')).toBe(REFRESH_DEFAULT_MS);
    expect(refreshPeriodMs('?other=1')).toBe(REFRESH_DEFAULT_MS);
    expect(refreshPeriodMs('?refresh=10')).toBe(10_000);
    expect(refreshPeriodMs('?refresh=0.5&other=1')).toBe(500);
    expect(refreshPeriodMs('?refresh=0')).toBe(REFRESH_MIN_MS);
    expect(refreshPeriodMs('?refresh=-4')).toBe(REFRESH_MIN_MS);
    expect(refreshPeriodMs('?refresh=3600')).toBe(REFRESH_MAX_MS);
    for (const garbage of ['?refresh=', '?refresh=soon', '?refresh=Infinity', '?refresh=1e999', '?refresh=%20'])
      expect(refreshPeriodMs(garbage), garbage).toBe(REFRESH_DEFAULT_MS);
    expect(refreshPeriodText(3_000)).toBe('3 s');
    expect(refreshPeriodText(500)).toBe('0.5 s');
  });

  it('starts each refresh a period after the last one settled, so slow ones never overlap', async () => {
    let running = 0;
    let mostAtOnce = 0;
    let runs = 0;
    const stop = refreshEvery(5, async () => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      // Slower than the period, and every other one fails: the next still comes, after it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      running--;
      runs++;
      if (runs % 2 === 0) throw new Error('a failed poll');
    });
    try {
      await waitFor(() => runs >= 6, 'six refreshes');
    } finally {
      stop();
    }
    expect(mostAtOnce).toBe(1);
  });
});
