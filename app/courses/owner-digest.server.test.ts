import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox } from "~/db/schema";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { BOOKING_MAIL } from "./mails.server";
import { enqueueOwnerNotice, OWNER_DIGEST_DELAY_MS } from "./owner-digest.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const notice = (n: number) => ({
  kind: BOOKING_MAIL.ownerRegistration,
  recipient: null,
  people: [{ name: `Personne ${n}`, email: `personne${n}@example.ch`, phone: null }],
  subject: `Nouvelle inscription : Personne ${n}`,
  text: `Personne ${n}, personne${n}@example.ch, s’est inscrite.`,
});

describe("the owner's booking notices", () => {
  it("past 5 an hour, go into one digest sent an hour later that names every person", async () => {
    const now = new Date();
    const ids: number[] = [];
    for (let n = 1; n <= 40; n += 1)
      ids.push(await database.db.transaction((tx) => enqueueOwnerNotice(tx, 5, now, notice(n))));
    const rows = await database.db.select().from(outbox);
    expect(rows.filter((row) => row.kind === BOOKING_MAIL.ownerRegistration)).toHaveLength(5);
    const digests = rows.filter((row) => row.kind === BOOKING_MAIL.ownerDigest);
    expect(digests).toHaveLength(1);
    const [digest] = digests;
    expect(new Date(digest!.notBefore).getTime()).toBe(now.getTime() + OWNER_DIGEST_DELAY_MS);
    for (let n = 6; n <= 40; n += 1) expect(digest!.textBody).toContain(`Nouvelle inscription : Personne ${n}\n`);
    expect(digest!.textBody).not.toContain("Personne 5\n");
    expect(digest!.named.map((person) => person.email)).toContain("personne40@example.ch");
    expect(new Set(ids.slice(5))).toEqual(new Set([digest!.id]));
  });

  it("without a limit (the desk's own bookings), writes each notice", async () => {
    const before = (await database.db.select().from(outbox)).length;
    await database.db.transaction((tx) => enqueueOwnerNotice(tx, undefined, new Date(), notice(99)));
    expect((await database.db.select().from(outbox)).length).toBe(before + 1);
  });
});
