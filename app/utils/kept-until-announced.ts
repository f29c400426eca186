/**
 * A value read from the database and kept in this process until the
 * database announces a change of one of its tags (the render cache's
 * channel, migration 0008; server/announcements.ts hears it), for a read
 * every page would otherwise repeat (the site's share image: the hero slot).
 *
 * - `keptUntilAnnounced(tags, read)` → `(key) => Promise<value>`: `read(key)`
 *   once, then the kept value until a tag of `tags` is announced, one per
 *   `key` (the database). Nothing is kept while the process does not hear the
 *   announcements (a lost connection, a script, a unit test): each call reads.
 * - `heardAnnouncement(tag)` and `hearingAnnouncements(up)`: called by the
 *   process's one listener, before the render cache drops its pages, so that
 *   a page rendered after the drop reads the new value.
 *
 * The state lives on `globalThis`: the compiled Express server and React
 * Router's build each bundle their own copy of this module.
 */

interface Heard {
  listening: boolean;
  /** Bumped when listening starts or stops: everything kept before is dropped. */
  epoch: number;
  /** Announcements heard, by tag. */
  counts: Map<string, number>;
}

const KEY = Symbol.for("formation-assistance-informatique.kept-until-announced");
const heard: Heard = ((globalThis as { [KEY]?: Heard })[KEY] ??= { listening: false, epoch: 0, counts: new Map() });

/** The listener heard `tag` announced. */
export function heardAnnouncement(tag: string): void {
  heard.counts.set(tag, (heard.counts.get(tag) ?? 0) + 1);
}

/** The listener started (`true`) or stopped (`false`) hearing the announcements. */
export function hearingAnnouncements(up: boolean): void {
  if (up === heard.listening) return;
  heard.listening = up;
  heard.epoch += 1;
}

/** `read` kept per key until one of `tags` is announced (see the module). Throws what `read` throws (nothing kept). */
export function keptUntilAnnounced<K extends object, T>(
  tags: readonly string[],
  read: (key: K) => Promise<T>,
): (key: K) => Promise<T> {
  const kept = new WeakMap<K, { stamp: string; value: T }>();
  const stamp = () =>
    heard.listening ? [heard.epoch, ...tags.map((tag) => heard.counts.get(tag) ?? 0)].join(",") : null;
  return async (key) => {
    const before = stamp();
    const entry = kept.get(key);
    if (before !== null && entry?.stamp === before) return entry.value;
    const value = await read(key);
    // Kept only when nothing was announced while it was read.
    if (before !== null && stamp() === before) kept.set(key, { stamp: before, value });
    return value;
  };
}
