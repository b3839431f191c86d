// How the process-level tests play their callers: bounded concurrency, and a caller that sends
// the same key again for as long as the answer is transient, as docs/design.md asks of clients.

/** The answers a caller retries with the same key: the outcome is not decided yet. */
export const TRANSIENT_ANSWERS: ReadonlySet<string> = new Set(['RequestInProgress', 'OutcomeUnknown']);

/** Sends one key until its answer is final; returns every answer, in order (the final one last). */
export async function untilFinal(send: () => Promise<string>): Promise<string[]> {
  const answers: string[] = [];
  for (;;) {
    const kind = await send();
    answers.push(kind);
    if (!TRANSIENT_ANSWERS.has(kind)) return answers;
  }
}

/** Runs `count` tasks with at most `lanes` at once. */
export async function inLanes(count: number, lanes: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < count) await task(next++);
    }),
  );
}
