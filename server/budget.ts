/**
 * A per-client budget of requests: each client (its address) may spend `perMinute`
 * requests at once, and gets them back at `perMinute` a minute (a token bucket). The
 * server gives `POST /api/new` and `/api/load` one, so that nobody can fill the server
 * with games; the clock is a parameter, so tests drive it.
 *
 * @module
 */

/** One client's bucket: what it has left, as of when. */
interface Bucket {
  tokens: number;
  at: number;
}

/** The most clients remembered; beyond, the ones whose budget is whole again are forgotten. */
const MAX_CLIENTS = 10_000;

/** Requests per client, refilled continuously. */
export class Budget {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    /** The requests a client may make at once, and per minute. */
    readonly perMinute: number,
    /** The clock (ms since the epoch). */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Spends one request of `client`'s budget: undefined when it may go on, or the
   * seconds until it may try again.
   */
  spend(client: string): number | undefined {
    const now = this.now();
    const rate = this.perMinute / 60_000;
    const old = this.buckets.get(client);
    const tokens = old === undefined
      ? this.perMinute
      : Math.min(this.perMinute, old.tokens + (now - old.at) * rate);
    if (tokens < 1) {
      this.buckets.set(client, { tokens, at: now });
      return Math.max(1, Math.ceil((1 - tokens) / rate / 1000));
    }
    this.buckets.set(client, { tokens: tokens - 1, at: now });
    if (this.buckets.size > MAX_CLIENTS) this.forget(now, rate);
    return undefined;
  }

  /** Forgets the clients whose budget is whole again (they start whole anyway). */
  private forget(now: number, rate: number): void {
    for (const [client, b] of this.buckets) {
      if (b.tokens + (now - b.at) * rate >= this.perMinute) this.buckets.delete(client);
    }
  }
}
