import { LockKeyMap } from './LockKeyMap.ts';
import type { LockKey } from './lockKeys.ts';

/**
 * Which open transaction holds each unique-index key it has written. A key has at most one
 * holder: a second transaction writing it conflicts, a plain write waits for the holder to end.
 */
export class LockTable<Holder> {
  readonly #held = new LockKeyMap<Holder>();

  holderOf(key: LockKey): Holder | undefined {
    return this.#held.get(key);
  }

  /** The first holder other than `self` among `keys`, if any. */
  conflictFor(keys: LockKey[], self?: Holder): Holder | undefined {
    for (const key of keys) {
      const holder = this.#held.get(key);
      if (holder !== undefined && holder !== self) return holder;
    }
    return undefined;
  }

  acquire(keys: LockKey[], holder: Holder): void {
    for (const key of keys) this.#held.set(key, holder);
  }

  release(keys: Iterable<LockKey>, holder: Holder): void {
    for (const key of keys) if (this.#held.get(key) === holder) this.#held.delete(key);
  }

  get size(): number {
    return this.#held.size;
  }
}
