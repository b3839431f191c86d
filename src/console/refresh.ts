// How often the console re-reads its polled panels (the queue, the projection, moves, live feeds,
// schedules; the ledger and failed items for a key that may not subscribe). Every 3 s unless the
// page's address asks otherwise: `/console/?refresh=10` (seconds) for a wall screen left open all
// day, `?refresh=0.5` to watch a burst closely. The browser tests use the short period so that
// they wait for a few polls, not for 3 s periods. Pure (no DOM): a Node test reads it too.

export const REFRESH_DEFAULT_MS = 3_000;
/** The shortest period: four polls a second, each four to seven small reads, is plenty for one page. */
export const REFRESH_MIN_MS = 250;
/** The longest: a chart of the last 3 minutes still gets a few points. */
export const REFRESH_MAX_MS = 60_000;
/** The query parameter that sets the period, in seconds. */
export const REFRESH_PARAM = 'refresh';

/**
 * The period the page's query string asks for (`?refresh=<seconds>`), kept within
 * REFRESH_MIN_MS..REFRESH_MAX_MS; REFRESH_DEFAULT_MS when it asks for none or for something that is
 * not a number of seconds.
 */
export function refreshPeriodMs(search: string): number {
  const asked = new URLSearchParams(search).get(REFRESH_PARAM);
  if (asked === null || asked.trim() === '') return REFRESH_DEFAULT_MS;
  const seconds = Number(asked);
  if (!Number.isFinite(seconds)) return REFRESH_DEFAULT_MS;
  return Math.min(REFRESH_MAX_MS, Math.max(REFRESH_MIN_MS, Math.round(seconds * 1_000)));
}

/** A period as the page writes it: "3 s", "0.5 s". */
export function refreshPeriodText(periodMs: number): string {
  return `${periodMs / 1_000} s`;
}

/**
 * Runs `refresh` every `periodMs`, each run starting a period after the last one settled: on a slow
 * machine or network, polls never pile up behind each other (setInterval would start the next
 * while the last is still waiting). Returns what stops it (the page never does).
 */
export function refreshEvery(periodMs: number, refresh: () => Promise<unknown>): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const next = () => {
    if (!stopped) timer = setTimeout(() => void refresh().then(next, next), periodMs);
  };
  next();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
