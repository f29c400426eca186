/**
 * The one listener of the database's announcements (server/announcements.ts):
 * the desk's payload reaches the live desk and leaves the render cache's
 * pages in place; a page tag reaches the cache only; a connection back
 * after a loss makes the desk read its counts again.
 */
import pino from "pino";
import { describe, expect, it } from "vitest";
import { announcementListener } from "./announcements";
import { RenderCache, type RenderedPage } from "./render-cache-store";

const page = (tags: string[]): RenderedPage => ({
  status: 200,
  headers: [],
  body: Buffer.from("page"),
  length: 4,
  scriptSources: "",
  tags: new Set(tags),
  expiresAt: Infinity,
  kept: true,
});

function setUp() {
  const cache = new RenderCache({ maxBytes: 1024 * 1024 });
  cache.setListening(true);
  cache.set("/cours", page(["courses"]), cache.generation);
  cache.set("/blog", page(["articles"]), cache.generation);
  let deskChanges = 0;
  const listener = announcementListener({
    cache,
    desk: {
      changed: async () => {
        deskChanges += 1;
      },
    },
    logger: pino({ level: "silent" }),
  });
  return { cache, listener, deskChanges: () => deskChanges };
}

describe("announcementListener", () => {
  it("sends the desk's announcement to the live desk and keeps every cached page", () => {
    const { cache, listener, deskChanges } = setUp();
    listener.message("desk");
    expect(deskChanges()).toBe(1);
    expect(cache.size).toBe(2);
  });

  it("sends a page tag to the render cache only", () => {
    const { cache, listener, deskChanges } = setUp();
    listener.message("courses");
    expect(deskChanges()).toBe(0);
    expect(cache.get("/cours")).toBeUndefined();
    expect(cache.get("/blog")).toBeDefined();
  });

  it("after a lost connection, keeps no page until it listens again, then has the desk read its counts", () => {
    const { cache, listener, deskChanges } = setUp();
    listener.connected(false);
    expect(cache.listening).toBe(false);
    expect(cache.size).toBe(0);
    expect(deskChanges()).toBe(0);
    listener.connected(true);
    expect(cache.listening).toBe(true);
    expect(deskChanges()).toBe(1);
  });
});
