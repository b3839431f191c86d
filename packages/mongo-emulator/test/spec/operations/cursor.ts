// Operations on change streams and cursors saved as entities.
import type { AbstractCursor, ChangeStream } from 'mongodb';
import type { OperationHandler } from './context.ts';

type Iterable = ChangeStream | AbstractCursor;
type Handler = OperationHandler<Iterable>;

export const cursorOperations: Record<string, Handler> = {
  async iterateUntilDocumentOrError(iterable) {
    // A change stream's next() waits for a document (or error); the test timeout bounds it.
    return { value: await iterable.next() };
  },
  async iterateOnce(iterable) {
    return { value: await iterable.tryNext() };
  },
  async close(iterable) {
    await iterable.close().catch(() => undefined);
    return { value: undefined };
  },
};
