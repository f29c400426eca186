/**
 * The live desk's server side (app/desk/live.server.ts): what counts as
 * new on a real (PGlite) database, what opening a list changes, and the
 * event streams of `DeskLive` (first snapshot at once, a change sent once
 * and only when it shows something new, heartbeats, the end of a stream
 * when its client goes or the server stops). Events carry counts and ids
 * only.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createSession } from "~/courses/sessions.server";
import { contacts, courseRegistrations, deskSeen, newsletterSubscribers } from "~/db/schema";
import { openTestDatabase, sessionFields, type TestDatabase } from "../../tests/support/harness";
import type { DeskSnapshot } from "./live";
import { DeskLive, deskSnapshot, markSeen, seenKindOf, snapshotEvent } from "./live.server";

const snapshot = (requests: number, latestRequest = requests): DeskSnapshot => ({
  requests,
  registrations: 0,
  subscriptions: 0,
  calls: 0,
  undelivered: 0,
  decisions: 0,
  decisionSession: 0,
  latest: { request: latestRequest, registration: 0, subscription: 0 },
});

/** Reads a stream's text as it comes. */
function reader(stream: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  const read = stream.getReader();
  let text = "";
  let done = false;
  const pump = (async () => {
    for (;;) {
      const chunk = await read.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value);
    }
    done = true;
  })();
  return {
    get text() {
      return text;
    },
    get done() {
      return done;
    },
    ended: pump,
    /** Waits for the microtasks and timers already due (the stream's writes). */
    settle: () => new Promise((resolve) => setImmediate(resolve)),
  };
}

describe("DeskLive", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends the current snapshot at once, then each change once, and nothing when nothing shown changed", async () => {
    let current = snapshot(1);
    const live = new DeskLive({ snapshot: async () => current });
    const stream = reader(live.stream(new AbortController().signal));
    await stream.settle();
    expect(stream.text).toBe(`retry: 3000\n\n${snapshotEvent(snapshot(1))}`);
    expect(live.clients).toBe(1);

    await live.changed(); // the snapshot the stream got first: not sent twice
    current = snapshot(2);
    await live.changed();
    await live.changed(); // the same snapshot again: not sent twice
    await stream.settle();
    expect(stream.text.split("event: counts").length - 1).toBe(2);
    expect(stream.text.endsWith(snapshotEvent(snapshot(2)))).toBe(true);
    // A request handled and another arrived: same count, a new latest id, sent.
    current = snapshot(2, 3);
    await live.changed();
    await stream.settle();
    expect(stream.text.endsWith(snapshotEvent(snapshot(2, 3)))).toBe(true);
    live.close();
  });

  it("reads once more, not once per announcement, when changes come during a read", async () => {
    let reads = 0;
    let release!: () => void;
    const live = new DeskLive({
      snapshot: () => {
        reads += 1;
        return new Promise((resolve) => {
          release = () => resolve(snapshot(reads));
        });
      },
    });
    const controller = new AbortController();
    const stream = reader(live.stream(controller.signal));
    await stream.settle();
    release(); // the stream's own first snapshot
    await stream.settle();
    reads = 0;
    const first = live.changed();
    void live.changed();
    void live.changed();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await first;
    expect(reads).toBe(2);
    controller.abort();
    live.close();
  });

  it("reads nothing while no desk is open, and a stream opened later still gets every change", async () => {
    let reads = 0;
    let current = snapshot(1);
    const live = new DeskLive({
      snapshot: async () => {
        reads += 1;
        return current;
      },
    });
    const first = new AbortController();
    const earlier = reader(live.stream(first.signal));
    await earlier.settle();
    await live.changed(); // snapshot(1) sent to the stream open then
    first.abort();
    await earlier.ended;
    expect(live.clients).toBe(0);

    reads = 0;
    current = snapshot(2);
    await live.changed();
    await live.changed();
    expect(reads, "no stream open: the announcements read nothing").toBe(0);

    const stream = reader(live.stream(new AbortController().signal));
    await stream.settle();
    expect(stream.text.endsWith(snapshotEvent(snapshot(2)))).toBe(true);
    // Back to what was last sent before the desk closed: the open stream shows 2, so 1 is sent.
    current = snapshot(1);
    await live.changed();
    await stream.settle();
    expect(stream.text.endsWith(snapshotEvent(snapshot(1)))).toBe(true);
    live.close();
  });

  it("a second stream's first snapshot does not count as sent to the first: a change it already shows still reaches the first", async () => {
    let current = snapshot(1);
    const live = new DeskLive({ snapshot: async () => current });
    const first = reader(live.stream(new AbortController().signal));
    await first.settle();
    current = snapshot(2); // changed, its announcement not heard yet
    const second = reader(live.stream(new AbortController().signal));
    await second.settle();
    expect(second.text.endsWith(snapshotEvent(snapshot(2)))).toBe(true);
    await live.changed();
    await first.settle();
    expect(first.text.endsWith(snapshotEvent(snapshot(2)))).toBe(true);
    live.close();
  });

  it("keeps an idle stream open with a heartbeat comment", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const live = new DeskLive({ snapshot: async () => snapshot(0), heartbeatMs: 25_000 });
    const stream = reader(live.stream(new AbortController().signal));
    await stream.settle();
    expect(stream.text).not.toContain(": \n\n");
    vi.advanceTimersByTime(25_000);
    await stream.settle();
    expect(stream.text.endsWith(": \n\n")).toBe(true);
    live.close();
  });

  it("ends a stream after its longest life, so that the browser's next one goes through the session check", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    const live = new DeskLive({ snapshot: async () => snapshot(0), maxStreamMs: 300_000 });
    const stream = reader(live.stream(new AbortController().signal));
    await stream.settle();
    vi.advanceTimersByTime(299_000);
    await stream.settle();
    expect(stream.done).toBe(false);
    vi.advanceTimersByTime(1000);
    await stream.ended;
    expect(live.clients).toBe(0);
    live.close();
  });

  it("ends a stream when its client goes, and every stream when the server stops", async () => {
    const live = new DeskLive({ snapshot: async () => snapshot(0) });
    const gone = new AbortController();
    const first = reader(live.stream(gone.signal));
    const second = reader(live.stream(new AbortController().signal));
    await first.settle();
    expect(live.clients).toBe(2);
    gone.abort();
    await first.ended;
    expect(live.clients).toBe(1);
    expect(second.done).toBe(false);
    live.close();
    await second.ended;
    expect(live.clients).toBe(0);
    // After the stop, a new stream ends at once.
    const late = reader(live.stream(new AbortController().signal));
    await late.ended;
    expect(late.text).toBe("");
  });
});

describe("seenKindOf", () => {
  it("names the kind the owner's list pages show, whatever the spelling", () => {
    expect(seenKindOf("/admin/cours")).toBe("registrations");
    expect(seenKindOf("/Admin/Cours/")).toBe("registrations");
    expect(seenKindOf("/admin/cours.data")).toBe("registrations");
    expect(seenKindOf("/admin/lettres")).toBe("subscriptions");
    expect(seenKindOf("/admin/abonnes")).toBe("subscriptions");
    expect(seenKindOf("/admin/cours/3")).toBeNull();
    expect(seenKindOf("/admin")).toBeNull();
  });
});

describe("deskSnapshot and markSeen", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("counts requests still new, web registrations and confirmed subscriptions since the owner looked", async () => {
    const { db } = database;
    const empty = await deskSnapshot(db);
    expect(empty).toEqual({
      requests: 0,
      registrations: 0,
      subscriptions: 0,
      calls: 0,
      undelivered: 0,
      decisions: 0,
      decisionSession: 0,
      latest: { request: 0, registration: 0, subscription: 0 },
    });

    const request = (email: string, status = "nouveau") => ({
      firstName: "Marie",
      lastName: "Dupont",
      email,
      phone: "+41 21 123 45 67",
      service: "one-to-one-course",
      message: "Bonjour",
      newsletterConsent: false,
      contactConsent: true,
      consentTimestamp: new Date().toISOString(),
      status,
    });
    const [handled] = await db
      .insert(contacts)
      .values([request("a@example.ch", "termine"), request("b@example.ch")])
      .returning({ id: contacts.id });
    const sessionId = await createSession(db, sessionFields());
    const registration = (source: string, status: string, n: number) => ({
      sessionId,
      status,
      seats: 1,
      firstName: "Jean",
      lastName: `Muller ${n}`,
      phone: `079 100 00 0${n}`,
      source,
    });
    const registrations = await db
      .insert(courseRegistrations)
      .values([
        registration("web", "confirmed", 1),
        registration("desk", "confirmed", 2),
        registration("web", "cancelled", 3),
      ])
      .returning({ id: courseRegistrations.id });
    const subscriber = (email: string, status: string) => ({
      email,
      status,
      source: "home",
      consentVersion: "1",
      confirmedAt: status === "confirmed" ? new Date().toISOString() : null,
    });
    const subscribers = await db
      .insert(newsletterSubscribers)
      .values([subscriber("c@example.ch", "confirmed"), subscriber("d@example.ch", "pending")])
      .returning({ id: newsletterSubscribers.id });

    const counted = await deskSnapshot(db);
    expect(counted.requests).toBe(1);
    expect(counted.registrations).toBe(1);
    expect(counted.subscriptions).toBe(1);
    expect(counted.latest.request).toBe(handled!.id + 1);
    expect(counted.latest.registration).toBe(registrations[2]!.id);
    expect(counted.latest.subscription).toBe(subscribers[0]!.id);
    // Counts and ids only: nothing a person typed.
    expect(snapshotEvent(counted)).not.toMatch(/example|Marie|Jean|Muller|079/);

    await markSeen(db, "registrations");
    expect((await deskSnapshot(db)).registrations).toBe(0);
    expect((await deskSnapshot(db)).subscriptions).toBe(1);
    await markSeen(db, "subscriptions");
    expect((await deskSnapshot(db)).subscriptions).toBe(0);
  });

  it("writes nothing when the owner opens a list with nothing new in it", async () => {
    const { db } = database;
    const before = await db.select().from(deskSeen).where(eq(deskSeen.kind, "registrations"));
    await markSeen(db, "registrations");
    const after = await db.select().from(deskSeen).where(eq(deskSeen.kind, "registrations"));
    expect(after[0]!.seenAt).toBe(before[0]!.seenAt);
  });
});
