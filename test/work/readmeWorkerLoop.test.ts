import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CREATE, callAs } from './support/workGql.ts';

// The README's worker loop is the one users copy, so it must work: this test cuts it out of
// README.md between its markers and runs it, four workers at once, over HTTP, to drain a queue.

type WorkerLoop = (
  call: (document: string, variables?: Record<string, unknown>) => Promise<any>,
  workerId: string,
  kinds: string[],
  work: (payload: any, heartbeat: () => Promise<boolean>) => Promise<unknown>,
) => Promise<void>;

function loadReadmeWorkerLoop(): WorkerLoop {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /<!-- worker-loop:start -->\s*```js\n([\s\S]*?)```\s*<!-- worker-loop:end -->/.exec(readme);
  if (!block?.[1]) throw new Error('README.md has no worker-loop block between its markers');
  const body = block[1].replace(/^export /m, '');
  return new Function(`${body}\nreturn workerLoop;`)() as WorkerLoop;
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

describe('README worker loop', () => {
  it('drains a queue with four concurrent workers: every item DONE once, with the result the work returned', async () => {
    const workerLoop = loadReadmeWorkerLoop();
    const service = callAs(app, 'service');
    const itemCount = 24;
    for (let i = 0; i < itemCount; i++) {
      await service(CREATE, {
        input: { kind: 'README_EMAIL', payload: { to: `u${i}` }, idempotencyKey: `readme-${i}` },
      });
    }
    const heartbeats: boolean[] = [];
    const work = async (payload: { to: string }, heartbeat: () => Promise<boolean>) => {
      heartbeats.push(await heartbeat());
      return { sentTo: payload.to };
    };
    const worker = callAs(app, 'worker');
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => workerLoop(worker, id, ['README_EMAIL'], work)));

    expect(heartbeats).toEqual(Array<boolean>(itemCount).fill(true));
    const page = await worker(
      `{ workItems(kind: "README_EMAIL", first: 100) { items { status version payload result } } }`,
    );
    expect(page.workItems.items).toHaveLength(itemCount);
    for (const item of page.workItems.items) {
      expect(item).toMatchObject({ status: 'DONE', version: 3, result: { sentTo: item.payload.to } });
    }
  });
});
