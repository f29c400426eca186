import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { outbox } from "~/db/schema";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { enqueueVisitorMail, MAIL_HELD_NOTICE, mailboxOf } from "./recipient-cap.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe("the per-recipient mail cap", () => {
  it("counts name+tag@ and NAME@ as the mailbox name@ they all reach", async () => {
    const cap = { perDay: 3, siteUrl: "https://example.ch", now: new Date("2027-01-12T09:00:00Z") };
    const addresses = ["odette@example.ch", "odette+1@example.ch", "Odette+cours@Example.ch", "odette+2@example.ch"];
    const written: (number | null)[] = [];
    for (const recipient of addresses) {
      written.push(
        await database.db.transaction((tx) =>
          enqueueVisitorMail(cap, tx, { kind: "booking-confirmation", recipient, subject: "Inscription", text: "…" }),
        ),
      );
    }
    expect(written.map((id) => id !== null)).toEqual([true, true, true, false]);
    expect(await database.db.select().from(outbox).where(eq(outbox.kind, MAIL_HELD_NOTICE))).toHaveLength(1);
  });

  it("keeps distinct mailboxes apart", () => {
    expect(mailboxOf(" Marie.Dupont+cours@Example.CH ")).toBe("marie.dupont@example.ch");
    expect(mailboxOf("marie@example.ch")).not.toBe(mailboxOf("marie@example.com"));
    expect(mailboxOf("+tag@example.ch")).toBe("+tag@example.ch");
  });
});
