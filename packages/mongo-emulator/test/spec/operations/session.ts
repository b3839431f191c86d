// Session entity operations, transactions included (the convenient API's callback is a list of
// operations run with the usual assertions, whose errors reach withTransaction).
import type { SessionEntity } from '../entities.ts';
import { transactionOptions } from '../entities.ts';
import type { Operation, OperationHandler } from './context.ts';

type Handler = OperationHandler<SessionEntity>;

export const sessionOperations: Record<string, Handler> = {
  async startTransaction(entity, args, context) {
    context.startedTransaction = true;
    entity.session.startTransaction(transactionOptions(args.options()));
    return { value: undefined };
  },
  async commitTransaction(entity) {
    return { value: await entity.session.commitTransaction() };
  },
  async abortTransaction(entity) {
    return { value: await entity.session.abortTransaction() };
  },
  async withTransaction(entity, args, context) {
    context.startedTransaction = true;
    const callback = args.required<Operation[]>('callback');
    const options = transactionOptions(args.options());
    await entity.session.withTransaction(() => context.runOperations(callback, { propagateErrors: true }), options);
    return { value: undefined };
  },
  async endSession(entity) {
    await entity.session.endSession();
    return { value: undefined };
  },
  async getSnapshotTime(entity) {
    // The driver keeps the snapshot's atClusterTime on the session once the first read ran.
    return { value: (entity.session as unknown as { snapshotTime?: unknown }).snapshotTime };
  },
};
