// Proves what the observability plugin records for each HTTP operation, run through a real Apollo
// server: the operation counter and the duration histogram by type (and outcome), the debug line
// with the request's bindings only when debug is on (the request's child logger is not even built
// otherwise), and an error line for an unexpected failure.
import { ApolloServer } from '@apollo/server';
import type { Db } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/app/requestContext.ts';
import { observabilityPlugin } from '../../src/server/observabilityPlugin.ts';
import { logMutationResults } from '../../src/server/operationObservation.ts';
import { createGraphqlTelemetry } from '../../src/server/telemetry.ts';
import type { AppServices } from '../../src/app/services.ts';
import { buildSchema } from 'graphql';

// Its mutation fields log as the server's do (startServer wraps the app's schema the same way).
const schema = logMutationResults(
  buildSchema('type Query { ok: Boolean, boom: Boolean } type Mutation { touch: Boolean }'),
);
const rootValue = {
  ok: () => true,
  boom: () => {
    throw new Error('kaboom');
  },
  touch: () => true,
};

async function run(level: 'info' | 'debug', documents: string[]) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  let childLoggers = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof logger.child>) => (
    childLoggers++, child(...args)
  )) as typeof logger.child;
  const registry = new Registry();
  const telemetry = createGraphqlTelemetry(registry);
  const apollo = new ApolloServer({ schema, rootValue, plugins: [observabilityPlugin(telemetry, logger)] });
  await apollo.start();
  const source = { db: { client: {} } as unknown as Db, logger, services: {} as AppServices };
  for (const query of documents) {
    await apollo.executeOperation(
      { query },
      { contextValue: createContext(source, { ok: true, principal: { role: 'admin', keyId: 'k1' } }, 'http') },
    );
  }
  await apollo.stop();
  const metrics = await registry.metrics();
  return { lines, childLoggers, metrics };
}

describe('the observability plugin', () => {
  it('counts and times operations by type and outcome, without building a logger for a query at info', async () => {
    const { lines, childLoggers, metrics } = await run('info', ['{ ok }', '{ ok }', 'mutation { touch }']);
    expect(metrics).toMatch(/^graphql_operations_total\{type="query",outcome="ok",operation="other"\} 2$/m);
    expect(metrics).toMatch(/^graphql_operations_total\{type="mutation",outcome="ok",operation="other"\} 1$/m);
    expect(metrics).toMatch(/^graphql_operation_duration_seconds_count\{type="query"\} 2$/m);
    expect(metrics).toMatch(/^graphql_operation_duration_seconds_bucket\{le="10",type="mutation"\} 1$/m);
    const sum = Number(/^graphql_operation_duration_seconds_sum\{type="query"\} (\S+)$/m.exec(metrics)?.[1]);
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(60);
    // Only the mutation writes its one info line (and builds its request's logger for it).
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'touch: Boolean', mutation: 'touch', result: 'Boolean', keyId: 'k1' }),
    ]);
    expect(childLoggers).toBe(1);
  });

  it("logs each operation at debug with the request's bindings, and an unexpected failure as an error", async () => {
    const { lines, metrics } = await run('debug', ['{ ok }', '{ boom }']);
    expect(metrics).toMatch(/^graphql_operations_total\{type="query",outcome="error",operation="other"\} 1$/m);
    const debug = lines.filter((line) => line['msg'] === 'graphql operation');
    expect(debug).toEqual([
      expect.objectContaining({
        type: 'query',
        outcome: 'ok',
        transport: 'http',
        keyId: 'k1',
        role: 'admin',
        requestId: expect.any(String),
      }),
      expect.objectContaining({ type: 'query', outcome: 'error', keyId: 'k1' }),
    ]);
    expect(lines.filter((line) => line['msg'] === 'graphql operation failed')).toEqual([
      expect.objectContaining({ keyId: 'k1', err: expect.objectContaining({ message: 'kaboom' }) }),
    ]);
  });
});
