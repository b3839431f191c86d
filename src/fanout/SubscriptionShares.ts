import { FeedLimits } from './limits.ts';

/** Who holds a subscription: the connection it came on, and the API key that opened it. */
export interface SubscriptionOwner {
  connectionId: string;
  keyId: string;
}

/** Which bound refused a subscription: the feed's, the socket's or the key's. */
export const SubscriptionLimit = Object.freeze({ FEED: 'feed', SOCKET: 'socket', KEY: 'key' } as const);
export type SubscriptionLimit = (typeof SubscriptionLimit)[keyof typeof SubscriptionLimit];

export interface SubscriptionRefusal {
  limit: SubscriptionLimit;
  /** The bound that was reached. */
  max: number;
}

export type ShareAdmission = { ok: true; release(): void } | { ok: false; refusal: SubscriptionRefusal };

export interface ShareLimits {
  perSocketMax: number;
  perKeyMax: number;
}

/**
 * A fair share of every feed: counts the live subscriptions of each connection and each API key
 * (over every feed of the process) and refuses one more past their bounds. A subscription holds
 * its share until it closes, however it closes (client `complete`, socket closed, slow subscriber
 * ended, feed stopped): `release` is idempotent and runs from the subscriber's close. Counts go
 * with their last subscription, so memory follows the live subscriptions, not the ones refused.
 */
export class SubscriptionShares {
  readonly #perConnection = new Map<string, number>();
  readonly #perKey = new Map<string, number>();

  constructor(
    readonly limits: ShareLimits = {
      perSocketMax: FeedLimits.subscriptionsPerSocketMax,
      perKeyMax: FeedLimits.subscriptionsPerKeyMax,
    },
  ) {}

  admit(owner: SubscriptionOwner): ShareAdmission {
    if ((this.#perConnection.get(owner.connectionId) ?? 0) >= this.limits.perSocketMax) {
      return { ok: false, refusal: { limit: SubscriptionLimit.SOCKET, max: this.limits.perSocketMax } };
    }
    if ((this.#perKey.get(owner.keyId) ?? 0) >= this.limits.perKeyMax) {
      return { ok: false, refusal: { limit: SubscriptionLimit.KEY, max: this.limits.perKeyMax } };
    }
    add(this.#perConnection, owner.connectionId, 1);
    add(this.#perKey, owner.keyId, 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        add(this.#perConnection, owner.connectionId, -1);
        add(this.#perKey, owner.keyId, -1);
      },
    };
  }

  /** Live subscriptions of a connection or of a key (0 when it holds none). */
  heldBy(owner: Partial<SubscriptionOwner>): { connection: number; key: number } {
    return {
      connection: owner.connectionId === undefined ? 0 : (this.#perConnection.get(owner.connectionId) ?? 0),
      key: owner.keyId === undefined ? 0 : (this.#perKey.get(owner.keyId) ?? 0),
    };
  }

  /** Connections and keys that hold a subscription now (what the maps cost). */
  get size(): { connections: number; keys: number } {
    return { connections: this.#perConnection.size, keys: this.#perKey.size };
  }
}

function add(counts: Map<string, number>, name: string, delta: number): void {
  const next = (counts.get(name) ?? 0) + delta;
  if (next > 0) counts.set(name, next);
  else counts.delete(name);
}
