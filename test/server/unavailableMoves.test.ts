// @module-tag failpoints
// R5 for the ledger's moves, as a client sends them: the SDK's own trusted documents (Withdraw,
// Transfer, SubmitMoves) over HTTP, through graphql-jit's compiled plans and through graphql-js,
// and over graphql-ws. mongod's failCommand holds, then closes, the connections that write the
// ledger's entries (the bulk write of each move's transaction), as a SIGKILLed primary does: a few
// moves run at once, so the first closed connection clears the driver's pool and the others' errors
// come from connections already stale, which the driver leaves without the transaction's
// TransientTransactionError label (sdam/server.js, decorateCommandError): not retried, they reach
// the client. Each answer must be the move's final result or a transient member of its union (data),
// or UNAVAILABLE (HTTP 503 with Retry-After): never INTERNAL_SERVER_ERROR.
//
// Two ways this went wrong (issue 42, the full fault run's "read ECONNRESET"): the driver wraps a
// network error met by a bulk write in a MongoBulkWriteError that keeps neither its class nor its
// cause, only its message (src/db/mongoErrors.ts now reads the wrapped error); and graphql-jit's
// errors carry no `extensions` when the thrown error has none, so Apollo's own formatting threw
// and answered a bare INTERNAL_SERVER_ERROR before formatAppError saw the error
// (src/server/compiledExecution.ts now hands Apollo graphql-js errors).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CommandFailedEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionNames } from '../../src/ledger/model.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { failCommand, skipIfFailPointsRefused } from '../support/failPoints.ts';
import { useOwnEngine } from '../support/mongo.ts';

// Its fail points on an engine of its own, never waiting on another file's (test/support/mongo.ts).
useOwnEngine();

const MANIFEST = fileURLToPath(new URL('../../packages/sdk/trusted-documents.json', import.meta.url));
const DOCUMENTS = Object.values(JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, string>);

/** The SDK's document of a mutation, byte for byte (its hash is the manifest's, so the compiled plan runs). */
function sdkDocument(name: string): string {
  const found = DOCUMENTS.find((text) => new RegExp(`\\bmutation ${name}\\b`).test(text));
  if (found === undefined) throw new Error(`no trusted document for mutation ${name}`);
  return found;
}

type Operation = 'Withdraw' | 'Transfer' | 'SubmitMoves';
const OPERATIONS: readonly Operation[] = ['Withdraw', 'Transfer', 'SubmitMoves'];
/** Moves sent at once, each on accounts of its own (no write conflict between them): all but the first meet a stale connection. */
const CONCURRENT = 4;
/** How long the fail point holds each write before closing its connection: long enough for all of them to be held at once. */
const HOLD_MS = 300;

function variablesOf(operation: Operation, requestId: string, slot: number): Record<string, unknown> {
  const from = `from-${slot}`;
  const to = `to-${slot}`;
  switch (operation) {
    case 'Withdraw':
      return { input: { accountId: from, amount: 1, requestId } };
    case 'Transfer':
      return { input: { fromAccountId: from, toAccountId: to, amount: 1, requestId } };
    case 'SubmitMoves':
      return {
        input: {
          atomic: false,
          moves: [
            { kind: 'WITHDRAW', accountId: from, amount: 1, requestId: `${requestId}-1` },
            { kind: 'TRANSFER', accountId: from, toAccountId: to, amount: 1, requestId: `${requestId}-2` },
          ],
        },
      };
  }
}

interface Answer {
  status: number | null;
  retryAfter: string | null;
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

/** The answer R5 allows: data (the final result or a transient member), or UNAVAILABLE with 503 and Retry-After over HTTP. */
function expectNoInternalError(answer: Answer, operation: Operation): void {
  const field = operation.charAt(0).toLowerCase() + operation.slice(1);
  if (answer.errors === undefined) {
    expect(answer.status ?? 200).toBe(200);
    expect(answer.data?.[field]).toHaveProperty('__typename');
    return;
  }
  expect(answer.errors).toEqual([
    expect.objectContaining({ path: [field], extensions: { code: 'UNAVAILABLE', retryAfterSeconds: 1 } }),
  ]);
  if (answer.status !== null) {
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe('1');
  }
}

async function openAccounts(app: TestApp): Promise<void> {
  for (let slot = 0; slot < CONCURRENT; slot++) {
    for (const accountId of [`from-${slot}`, `to-${slot}`]) {
      const opened = await app.gql(sdkDocument('OpenAccount'), { input: { accountId, currency: 'EUR' } });
      expect(opened.data?.openAccount?.__typename).toBe('OpenAccountSuccess');
    }
    const deposited = await app.gql(sdkDocument('Deposit'), {
      input: { accountId: `from-${slot}`, amount: 1_000_000, requestId: `funding-${slot}` },
    });
    expect(deposited.data?.deposit?.__typename).toBe('DepositSuccess');
  }
}

/**
 * Holds, then closes, the connections of the app's next CONCURRENT updates of the ledger's entries
 * while `send` runs, and returns the answers with how many of those updates failed (the proof that the fault
 * was met, on more connections than the first).
 */
async function throughClosedConnections(app: TestApp, send: () => Promise<Answer[]>) {
  let failedUpdates = 0;
  const onFailed = (event: CommandFailedEvent) => {
    if (event.commandName === 'update') failedUpdates++;
  };
  app.client.on('commandFailed', onFailed);
  // The first CONCURRENT updates only: the ones sent at once; the reruns that follow go through.
  const turnOff = await failCommand(
    app.client,
    app.client.options.appName!,
    { times: CONCURRENT },
    {
      failCommands: ['update'],
      namespace: `${app.db.databaseName}.${collectionNames.entries}`,
      blockConnection: true,
      blockTimeMS: HOLD_MS,
      closeConnection: true,
    },
  );
  try {
    const answers = await send();
    return { answers, failedUpdates };
  } finally {
    app.client.off('commandFailed', onFailed);
    await turnOff();
  }
}

function sendAtOnce(execute: (slot: number) => Promise<Answer>): Promise<Answer[]> {
  return Promise.all(Array.from({ length: CONCURRENT }, (_, slot) => execute(slot)));
}

describe.each(['compiled', 'graphql-js'] as const)('over HTTP, trusted documents executed by %s', (execution) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0' }, trustedExecution: execution, monitorCommands: true });
    await openAccounts(app);
  });
  afterAll(async () => app?.close());

  it.for(OPERATIONS)(
    'answers %s sent while the primary drops its connections with results or UNAVAILABLE (503), never an internal error',
    async (operation, context) => {
      await skipIfFailPointsRefused(context, app.client);
      const { answers, failedUpdates } = await throughClosedConnections(app, () =>
        sendAtOnce(async (slot) => {
          const response = await fetch(app.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.admin}` },
            body: JSON.stringify({
              query: sdkDocument(operation),
              variables: variablesOf(operation, `${execution}-${operation}-${slot}`, slot),
            }),
          });
          return {
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            ...((await response.json()) as Omit<Answer, 'status' | 'retryAfter'>),
          };
        }),
      );
      expect(failedUpdates).toBeGreaterThanOrEqual(CONCURRENT);
      for (const answer of answers) expectNoInternalError(answer, operation);
    },
  );
});

describe('over graphql-ws', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0' }, monitorCommands: true });
    await openAccounts(app);
  });
  afterAll(async () => app?.close());

  it.for(OPERATIONS)(
    'answers %s sent while the primary drops its connections with results or UNAVAILABLE, never an internal error',
    async (operation, context) => {
      await skipIfFailPointsRefused(context, app.client);
      const ws = app.ws('admin');
      const { answers, failedUpdates } = await throughClosedConnections(app, () =>
        sendAtOnce(async (slot) => {
          const result = await ws.execute(
            sdkDocument(operation),
            variablesOf(operation, `ws-${operation}-${slot}`, slot),
          );
          return { status: null, retryAfter: null, ...(result as Omit<Answer, 'status' | 'retryAfter'>) };
        }),
      );
      expect(failedUpdates).toBeGreaterThanOrEqual(CONCURRENT);
      for (const answer of answers) expectNoInternalError(answer, operation);
    },
  );
});
