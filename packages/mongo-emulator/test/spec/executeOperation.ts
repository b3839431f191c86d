// Executing one operation: find its handler by entity type, run it, then check expectError,
// expectResult and saveResultAsEntity as "Executing an Operation" describes.
import { describe } from './bsonTypes.ts';
import { errorDifference, type ExpectedError } from './expectError.ts';
import { SkipTest, TestFailure, fail, unsupported } from './outcomes.ts';
import {
  Arguments,
  type Operation,
  type OperationHandler,
  type OperationResult,
  type TestContext,
} from './operations/context.ts';
import { clientOperations } from './operations/client.ts';
import { collectionOperations } from './operations/collection.ts';
import { cursorOperations } from './operations/cursor.ts';
import { databaseOperations } from './operations/database.ts';
import { sessionOperations } from './operations/session.ts';
import { testRunnerOperations } from './operations/testRunner.ts';

const HANDLERS = {
  client: clientOperations,
  database: databaseOperations,
  collection: collectionOperations,
  session: sessionOperations,
  changeStream: cursorOperations,
  cursor: cursorOperations,
} as const;

async function invoke(operation: Operation, context: TestContext): Promise<OperationResult> {
  const args = new Arguments(operation.arguments, context.entities);
  if (operation.object === 'testRunner') {
    const handler = testRunnerOperations[operation.name];
    if (handler === undefined) throw new Error(`unknown test runner operation ${operation.name}`);
    return handler(undefined, args, context);
  }
  const kind = context.entities.kindOf(operation.object);
  if (kind === 'bson' || kind === 'topologyDescription')
    throw new Error(`entity ${operation.object} is a value, it has no operations`);
  const handler = (HANDLERS[kind] as Record<string, OperationHandler<unknown>>)[operation.name];
  if (handler === undefined) unsupported(`the ${kind} operation ${operation.name}`);
  return handler(context.entities.get(operation.object, kind), args, context);
}

/**
 * Runs an operation and checks what the test expects of it. With `propagateErrors` (operations
 * inside a withTransaction callback) the operation's own error is rethrown once checked, so that
 * withTransaction sees it, as the format requires.
 */
export async function executeOperation(
  operation: Operation,
  context: TestContext,
  propagateErrors = false,
): Promise<void> {
  let result: OperationResult | undefined;
  let error: unknown;
  try {
    result = await invoke(operation, context);
  } catch (caught) {
    if (caught instanceof SkipTest || caught instanceof TestFailure) throw caught;
    error = caught;
  }
  const label = `${operation.object}.${operation.name}`;
  if (operation.ignoreResultAndError) {
    if (error !== undefined && propagateErrors) throw error;
    return;
  }
  if (operation.expectError !== undefined) {
    if (error === undefined) fail(`${label}: expected an error, got result ${describe(result?.value)}`);
    const difference = errorDifference(operation.expectError as ExpectedError, error, context.matcher);
    if (difference !== null) fail(`${label}: ${difference}`);
    if (propagateErrors) throw error;
    return;
  }
  if (error !== undefined) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : describe(error);
    fail(`${label}: unexpected error ${message}`);
  }
  if (operation.expectResult !== undefined) {
    const value = result?.value;
    const difference = result?.documentList
      ? context.matcher.matchDocumentList(operation.expectResult, value, 'result')
      : context.matcher.matchRoot(operation.expectResult, value, 'result');
    if (difference !== null) fail(`${label}: ${difference}`);
  }
  if (operation.saveResultAsEntity !== undefined) {
    const value = result?.value;
    if (value === undefined) fail(`${label}: no result to save as ${operation.saveResultAsEntity}`);
    saveEntity(operation.saveResultAsEntity, value, context);
  }
}

function saveEntity(name: string, value: unknown, context: TestContext): void {
  const className = (value as { constructor?: { name?: string } } | null)?.constructor?.name ?? '';
  if (className === 'ChangeStream') context.entities.set(name, 'changeStream', value as never);
  else if (className.endsWith('Cursor')) context.entities.set(name, 'cursor', value as never);
  else context.entities.set(name, 'bson', value);
}
