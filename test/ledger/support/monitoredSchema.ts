import { graphql, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { Registry } from 'prom-client';
import type { CommandStartedEvent } from 'mongodb';
import { buildAppSchema } from '../../../src/app/schema.ts';
import { buildServices } from '../../../src/app/createApp.ts';
import { createContext } from '../../../src/app/requestContext.ts';
import { ensureLedgerDashboardIndexes } from '../../../src/ledger/dashboard.ts';
import { ensureLedgerIndexes } from '../../../src/ledger/index.ts';
import { createLogger } from '../../../src/observability/logger.ts';
import { connectTestDb, testMongoEngine, type TestDb } from '../../support/mongo.ts';

/**
 * The app's schema executed in-process as an admin, on a client that reports every command it
 * sends, so a test can see exactly what one GraphQL operation asked of the database.
 */
export interface MonitoredSchema {
  db: TestDb;
  /** Runs `source` and returns its result with the commands it sent (handshakes excluded). */
  run(
    source: string,
    variables?: Record<string, unknown>,
  ): Promise<{ result: ExecutionResult; commands: CommandStartedEvent[] }>;
  close(): Promise<void>;
}

const ignoredCommands = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'endSessions', 'saslStart', 'saslContinue']);

export async function openMonitoredSchema(tag: string): Promise<MonitoredSchema> {
  const db = await connectTestDb(`ledger_${tag}`, { monitorCommands: true });
  await ensureLedgerIndexes(db.db);
  await ensureLedgerDashboardIndexes(db.db);
  const schema: GraphQLSchema = await buildAppSchema();
  const logger = createLogger({ level: 'silent' });
  const app = {
    db: db.db,
    logger,
    services: buildServices({ db: db.db, engine: testMongoEngine(), logger, registry: new Registry() }),
  };
  const principal = { role: 'admin' as const, keyId: 'test' };
  return {
    db,
    async run(source, variables = {}) {
      const commands: CommandStartedEvent[] = [];
      const listener = (event: CommandStartedEvent) => {
        if (!ignoredCommands.has(event.commandName)) commands.push(event);
      };
      db.client.on('commandStarted', listener);
      try {
        const contextValue = createContext(app, { ok: true, principal }, 'http');
        const result = await graphql({ schema, source, variableValues: variables, contextValue });
        return { result, commands };
      } finally {
        db.client.off('commandStarted', listener);
      }
    },
    close: () => db.close(),
  };
}
