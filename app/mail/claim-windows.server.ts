/**
 * The outbox worker's rate windows (`OutboxWorkerOptions.rates`,
 * outbox.server.ts): the rows of each throttled kind claimed in the last
 * minute, in this process.
 */

const MINUTE = 60_000;

/**
 * The claims of the throttled kinds in the last minute, in this process:
 * `allowance(kind)` is how many more may be claimed now.
 */
export class ClaimWindows {
  private readonly claims = new Map<string, number[]>();

  constructor(
    readonly rates: Record<string, number>,
    private readonly clock: () => number,
  ) {
    for (const [kind, perMinute] of Object.entries(rates))
      if (!Number.isInteger(perMinute) || perMinute < 1)
        throw new RangeError(`outbox: the rate of "${kind}" must be a whole number of mails a minute, at least 1`);
  }

  allowance(kind: string): number {
    const since = this.clock() - MINUTE;
    const recent = (this.claims.get(kind) ?? []).filter((time) => time > since);
    this.claims.set(kind, recent);
    return this.rates[kind]! - recent.length;
  }

  record(kinds: string[]): void {
    const now = this.clock();
    for (const kind of kinds) {
      if (!Object.hasOwn(this.rates, kind)) continue;
      const times = this.claims.get(kind) ?? [];
      times.push(now);
      this.claims.set(kind, times);
    }
  }
}
