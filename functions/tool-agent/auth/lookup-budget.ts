// A key the isolate has not seen costs a database lookup, so a caller sending random keys could
// make the database do work for free. Lookups of unseen keys draw from a per-isolate bucket
// (UNSEEN_KEY_LOOKUPS per second, in bursts of as many); past it, callers are told to slow down
// without a lookup. Keys already verified (cached for a minute) never draw from it, and a lookup
// that finds a real key gives its token back. Pure.
export const UNSEEN_KEY_LOOKUPS = 20;

export class LookupBudget {
  private readonly perSecond: number;
  private tokens: number;
  private last: number;

  constructor(perSecond = UNSEEN_KEY_LOOKUPS, now = Date.now()) {
    this.perSecond = perSecond;
    this.tokens = perSecond;
    this.last = now;
  }

  /** true when a lookup may run now (and takes its token). */
  take(now = Date.now()): boolean {
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Gives back a token: the lookup found a real key, and only unknown keys should spend. */
  refund(): void {
    this.tokens = Math.min(this.perSecond, this.tokens + 1);
  }
}
