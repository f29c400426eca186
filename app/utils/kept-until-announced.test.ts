/**
 * A value kept until announced is read once while the process hears the
 * database's announcements, read again after one of its tags (not after
 * another tag), and read at every call while nothing is heard.
 */
import { afterEach, describe, expect, it } from "vitest";
import { heardAnnouncement, hearingAnnouncements, keptUntilAnnounced } from "./kept-until-announced";

function counted() {
  const database = {};
  let reads = 0;
  const read = keptUntilAnnounced(["pictures", "settings"], async () => ++reads);
  return { read: () => read(database), reads: () => reads };
}

describe("keptUntilAnnounced", () => {
  afterEach(() => hearingAnnouncements(false));

  it("reads once while announcements are heard, again after one of its tags only", async () => {
    hearingAnnouncements(true);
    const { read, reads } = counted();
    expect([await read(), await read()]).toEqual([1, 1]);
    heardAnnouncement("courses");
    expect(await read()).toBe(1);
    heardAnnouncement("pictures");
    expect([await read(), await read()]).toEqual([2, 2]);
    heardAnnouncement("settings");
    expect(await read()).toBe(3);
    expect(reads()).toBe(3);
  });

  it("reads at every call while no announcement is heard, and after a lost connection", async () => {
    const { read } = counted();
    expect([await read(), await read()]).toEqual([1, 2]);
    hearingAnnouncements(true);
    expect([await read(), await read()]).toEqual([3, 3]);
    hearingAnnouncements(false);
    expect(await read()).toBe(4);
    hearingAnnouncements(true);
    expect(await read()).toBe(5);
  });

  it("keeps no value read while one of its tags was announced", async () => {
    hearingAnnouncements(true);
    let reads = 0;
    const read = keptUntilAnnounced(["pictures"], async () => {
      reads += 1;
      if (reads === 1) heardAnnouncement("pictures");
      return reads;
    });
    const database = {};
    expect([await read(database), await read(database), await read(database)]).toEqual([1, 2, 2]);
  });
});
