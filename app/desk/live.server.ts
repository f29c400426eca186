/**
 * The live desk's server side (docs/decisions/025-live-desk.md).
 *
 * - `deskSnapshot(db)`: what the badges show (`DeskSnapshot`, app/desk/live.ts),
 *   in one query: requests still « Nouveau », registrations made on the site
 *   and subscriptions confirmed since the owner last opened their page
 *   (`desk_seen`), the calls still to make (`course_calls`, app/courses/calls.server.ts, and the
 *   seats offered to people without e-mail, `course_offers`, app/courses/offers.server.ts),
 *   the mails not delivered (`UNDELIVERED`, app/mail/manage.server.ts), the courses below their minimum
 *   still to decide (`course_go_no_go`, app/courses/go-no-go.server.ts) with the page of the oldest, and the
 *   latest id of each kind.
 * - `markSeen(db, kind)`: the owner opened the page of `kind`; updates
 *   `desk_seen` only when something of that kind is new (an update
 *   announces a change to every open desk).
 * - `seenKindOf(pathname)`: which kind a desk page shows, if any.
 * - `DeskLive`: one per server process. The database announces, in the
 *   transaction that makes it, every change the badges may show (payload
 *   `DESK_CHANGE_TAG` on the render cache's channel, migration 0016);
 *   `changed()` is called for each and, while a stream is open, reads the
 *   snapshot again (one read at a time; announcements arriving meanwhile
 *   make one more read) and sends it to every open stream when it differs
 *   from the last one sent (with no stream open it reads nothing, and the
 *   first snapshot of a stream opened alone counts as sent). `stream()` is
 *   one owner's event stream: the current snapshot at once, then each
 *   change, and a comment every `heartbeatMs` so that proxies keep the
 *   connection; it ends when the client goes (`signal`), at `close()`, and
 *   after `maxStreamMs`: the browser then connects again through the
 *   session check, so a session revoked meanwhile (« Se déconnecter
 *   partout ») stops hearing anything within that time.
 *   The events carry counts and ids only, never a name or an address.
 */
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { errorFields } from "~/db/errors.server";
import { UNDELIVERED } from "~/mail/undelivered.server";
import { DESK_LIVE_EVENT, sameSnapshot, type DeskSnapshot } from "./live";

/** The payload the database announces on the render cache's channel when the desk's counts may change. */
export const DESK_CHANGE_TAG = "desk";

/** The kinds whose « new » depends on when the owner last looked (`desk_seen.kind`). */
export type SeenKind = "registrations" | "subscriptions";

/** Default time between two heartbeats of a stream: under the 60 s after which common proxies close an idle connection. */
export const HEARTBEAT_MS = 25_000;

/** Default longest life of one stream: the browser connects again, and its session is checked again. */
export const MAX_STREAM_MS = 5 * 60_000;

/** What a browser waits before it connects again after a stream ended (`retry:`), in milliseconds. */
const RECONNECT_MS = 3000;

/** The conditions under which a row is new, shared by the counts and by `markSeen`. */
const NEW_REGISTRATIONS = sql`r.source = 'web' and r.status <> 'cancelled'
  and r.created_at > (select seen_at from desk_seen where kind = 'registrations')`;
const NEW_SUBSCRIPTIONS = sql`s.status = 'confirmed'
  and s.confirmed_at > (select seen_at from desk_seen where kind = 'subscriptions')`;

/** The desk's counts and latest ids, read in one statement. */
export async function deskSnapshot(db: Database): Promise<DeskSnapshot> {
  // Both drivers (node-postgres and PGlite) answer `{ rows }`.
  const result = (await db.execute(sql`select
    (select count(*)::int from contacts where status = 'nouveau') as requests,
    (select count(*)::int from course_registrations r where ${NEW_REGISTRATIONS}) as registrations,
    (select count(*)::int from newsletter_subscribers s where ${NEW_SUBSCRIPTIONS}) as subscriptions,
    (select count(*)::int from course_calls where called_at is null)
      + (select count(*)::int from course_offers where state = 'open' and channel = 'call') as calls,
    (select count(*)::int from outbox where ${UNDELIVERED}) as undelivered,
    (select count(*)::int from course_go_no_go where state = 'below') as decisions,
    (select coalesce(min(session_id), 0)::text from course_go_no_go where state = 'below') as decision_session,
    (select coalesce(max(id), 0)::text from contacts) as latest_request,
    (select coalesce(max(id), 0)::text from course_registrations where source = 'web') as latest_registration,
    (select coalesce(max(id), 0)::text from newsletter_subscribers where status = 'confirmed') as latest_subscription`)) as unknown as {
    rows: Record<string, number | string | null>[];
  };
  const row = result.rows[0] ?? {};
  return {
    requests: Number(row.requests ?? 0),
    registrations: Number(row.registrations ?? 0),
    subscriptions: Number(row.subscriptions ?? 0),
    calls: Number(row.calls ?? 0),
    undelivered: Number(row.undelivered ?? 0),
    decisions: Number(row.decisions ?? 0),
    decisionSession: Number(row.decision_session ?? 0),
    latest: {
      request: Number(row.latest_request ?? 0),
      registration: Number(row.latest_registration ?? 0),
      subscription: Number(row.latest_subscription ?? 0),
    },
  };
}

/** Records that the owner saw every `kind` so far; writes (and announces) only when one was new. */
export async function markSeen(db: Database, kind: SeenKind): Promise<void> {
  const anyNew =
    kind === "registrations"
      ? sql`exists (select 1 from course_registrations r where ${NEW_REGISTRATIONS})`
      : sql`exists (select 1 from newsletter_subscribers s where ${NEW_SUBSCRIPTIONS})`;
  await db.execute(sql`update desk_seen set seen_at = now() where kind = ${kind} and ${anyNew}`);
}

/** The kind a desk page lists (`/admin/cours`: registrations; the letter's pages: subscriptions), or null. */
export function seenKindOf(pathname: string): SeenKind | null {
  const path = pathname
    .toLowerCase()
    .replace(/\.data$/, "")
    .replace(/\/+$/, "");
  if (path === "/admin/cours") return "registrations";
  if (path === "/admin/lettres" || path === "/admin/abonnes") return "subscriptions";
  return null;
}

/** One server-sent event carrying `snapshot` (counts and ids only). */
export const snapshotEvent = (snapshot: DeskSnapshot) =>
  `event: ${DESK_LIVE_EVENT}\ndata: ${JSON.stringify(snapshot)}\n\n`;

interface Client {
  send(text: string): void;
  end(): void;
}

export interface DeskLiveOptions {
  /** Reads the current snapshot (`deskSnapshot` on the site's database). */
  snapshot: () => Promise<DeskSnapshot>;
  logger?: Logger;
  /** Time between two heartbeats, in milliseconds (`HEARTBEAT_MS` by default). */
  heartbeatMs?: number;
  /** Longest life of one stream, in milliseconds (`MAX_STREAM_MS` by default). */
  maxStreamMs?: number;
}

export class DeskLive {
  readonly #clients = new Set<Client>();
  readonly #snapshot: () => Promise<DeskSnapshot>;
  readonly #logger: Logger | undefined;
  readonly #heartbeatMs: number;
  readonly #maxStreamMs: number;
  #heartbeat: NodeJS.Timeout | undefined;
  #last: DeskSnapshot | undefined;
  /** A read in progress, and whether another change came meanwhile. */
  #reading: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor({ snapshot, logger, heartbeatMs = HEARTBEAT_MS, maxStreamMs = MAX_STREAM_MS }: DeskLiveOptions) {
    this.#snapshot = snapshot;
    this.#logger = logger;
    this.#heartbeatMs = heartbeatMs;
    this.#maxStreamMs = maxStreamMs;
  }

  /** Open streams. */
  get clients(): number {
    return this.#clients.size;
  }

  /**
   * Something the badges count may have changed (an announcement of the
   * database, or its listening connection back after a loss). Resolves
   * once the snapshot was read and, if new, sent. With no stream open it
   * reads nothing (every outbox change, booking or request announces one,
   * and the desk is closed most of the time): it forgets what was last
   * sent instead; the next stream's first snapshot, its own read, becomes
   * what was last sent when that stream is the only one open.
   */
  changed(): Promise<void> {
    if (this.#clients.size === 0) {
      this.#last = undefined;
      return this.#reading ?? Promise.resolve();
    }
    if (this.#reading) {
      this.#again = true;
      return this.#reading;
    }
    this.#reading = (async () => {
      do {
        this.#again = false;
        try {
          const snapshot = await this.#snapshot();
          // Every stream went during the read: nobody was sent this one.
          if (this.#clients.size === 0) {
            this.#last = undefined;
            continue;
          }
          if (this.#last && sameSnapshot(this.#last, snapshot)) continue;
          this.#last = snapshot;
          const event = snapshotEvent(snapshot);
          for (const client of this.#clients) client.send(event);
        } catch (error) {
          this.#logger?.warn({ err: errorFields(error) }, "live desk: cannot read the counts");
        }
      } while (this.#again && !this.#closed);
    })().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  /**
   * One owner's event stream (UTF-8 text of `text/event-stream`): the
   * reconnection delay and the current snapshot at once, each new one
   * after, a heartbeat comment in between. Ends when `signal` aborts (the
   * client went), when the reader cancels, after `maxStreamMs`, or at `close()`.
   */
  stream(signal: AbortSignal): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let client: Client | undefined;
    let open = true;
    let expiry: NodeJS.Timeout | undefined;
    const remove = () => {
      clearTimeout(expiry);
      if (client && this.#clients.delete(client) && this.#clients.size === 0) this.#stopHeartbeat();
    };
    return new ReadableStream<Uint8Array>({
      start: async (controller) => {
        client = {
          send: (text) => {
            if (open) controller.enqueue(encoder.encode(text));
          },
          end: () => {
            if (!open) return;
            open = false;
            remove();
            try {
              controller.close();
            } catch {
              // Already closed by the reader.
            }
          },
        };
        if (this.#closed || signal.aborted) return client.end();
        signal.addEventListener("abort", () => client?.end(), { once: true });
        expiry = setTimeout(() => client?.end(), this.#maxStreamMs);
        expiry.unref();
        this.#clients.add(client);
        this.#startHeartbeat();
        client.send(`retry: ${RECONNECT_MS}\n\n`);
        try {
          const first = await this.#snapshot();
          client.send(snapshotEvent(first));
          // The only stream open has exactly this: a change read next that shows the same is not sent again.
          // (With other streams open it stays as it was: theirs may be older.)
          if (this.#clients.size === 1 && this.#clients.has(client)) this.#last = first;
        } catch (error) {
          this.#logger?.warn({ err: errorFields(error) }, "live desk: cannot read the counts");
          client.end();
        }
      },
      cancel: () => {
        open = false;
        remove();
      },
    });
  }

  /** Ends every stream (the server stops: browsers connect again, to another process if there is one). */
  close(): void {
    this.#closed = true;
    for (const client of [...this.#clients]) client.end();
    this.#stopHeartbeat();
  }

  #startHeartbeat(): void {
    if (this.#heartbeat) return;
    this.#heartbeat = setInterval(() => {
      for (const client of this.#clients) client.send(": \n\n");
    }, this.#heartbeatMs);
    this.#heartbeat.unref();
  }

  #stopHeartbeat(): void {
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}
