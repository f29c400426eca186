/**
 * Turns by key, in this process: tasks given for one key run one after
 * another, in the order given; tasks of different keys run side by side.
 * A task waits in memory (a promise), holding nothing else meanwhile: the
 * bookings of one series queue here instead of each holding a database
 * connection while it waits on the series' lock (decision 055). Nothing is
 * kept across a restart: a task not started when the process dies was
 * never answered either.
 *
 * `new KeyedTurns().run(key, task)` → what `task()` resolves or rejects
 * with, once every task given before it for `key` has settled (whatever
 * their outcome). `waiting(key)`: the tasks given for `key` and not settled.
 */
export class KeyedTurns {
  private readonly tails = new Map<string, { last: Promise<void>; count: number }>();

  /** Runs `task` after the tasks given before for `key`. @throws what `task` throws. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const turn = this.tails.get(key) ?? { last: Promise.resolve(), count: 0 };
    const result = turn.last.then(() => task());
    turn.last = result.then(
      () => this.settled(key),
      () => this.settled(key),
    );
    turn.count++;
    this.tails.set(key, turn);
    return result;
  }

  /** How many tasks of `key` wait or run. */
  waiting(key: string): number {
    return this.tails.get(key)?.count ?? 0;
  }

  private settled(key: string): void {
    const turn = this.tails.get(key)!;
    if (--turn.count === 0) this.tails.delete(key);
  }
}
