// The per-subscriber buffer between a feed and one GraphQL subscription, as the async iterator
// graphql-ws consumes. It never holds more than `capacity` items: `push` answers false when full
// and the feed decides what that means (tell the subscriber to resync, then end).
export class SubscriberQueue<T> implements AsyncIterableIterator<T> {
  readonly #items: T[] = [];
  #waiter: ((result: IteratorResult<T>) => void) | null = null;
  #ended = false;
  #onClose: (() => void) | null;

  constructor(
    private readonly capacity: number,
    onClose: () => void,
  ) {
    this.#onClose = onClose;
  }

  get ended(): boolean {
    return this.#ended;
  }

  push(item: T): boolean {
    if (this.#ended) return true;
    if (this.#waiter) {
      this.#resolveWaiter({ value: item, done: false });
      return true;
    }
    if (this.#items.length >= this.capacity) return false;
    this.#items.push(item);
    return true;
  }

  /** Ends after the buffered items and `last` (one item past capacity, so a final notice always fits). */
  end(last?: T): void {
    if (this.#ended) return;
    if (last !== undefined) {
      if (this.#waiter) this.#resolveWaiter({ value: last, done: false });
      else this.#items.push(last);
    }
    this.#ended = true;
    if (this.#waiter && this.#items.length === 0) this.#resolveWaiter({ value: undefined, done: true });
    this.#close();
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.#items.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.#waiter = resolve));
  }

  /**
   * `next()` without a promise: the next item (or the end) now if there is one, else undefined,
   * and `onNext` is called with it when it comes, synchronously, from the `push` or `end` that
   * brings it. One waiter at a time, as with `next()`. The fan-out's socket writer uses it so that
   * a delivery costs no promise and no microtask (src/server/wsServer.ts).
   */
  nextOrWait(onNext: (result: IteratorResult<T>) => void): IteratorResult<T> | undefined {
    const item = this.#items.shift();
    if (item !== undefined) return { value: item, done: false };
    if (this.#ended) return { value: undefined, done: true };
    this.#waiter = onNext;
    return undefined;
  }

  /** The subscriber went away (unsubscribe, socket closed): drop everything. */
  return(): Promise<IteratorResult<T>> {
    this.#items.length = 0;
    this.#ended = true;
    if (this.#waiter) this.#resolveWaiter({ value: undefined, done: true });
    this.#close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  #resolveWaiter(result: IteratorResult<T>): void {
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.(result);
  }

  #close(): void {
    const onClose = this.#onClose;
    this.#onClose = null;
    onClose?.();
  }
}
