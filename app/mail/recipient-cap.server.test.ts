import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { outbox } from "~/db/schema";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { enqueueVisitorMail, enqueueVisitorMails, MAIL_HELD_NOTICE, mailboxOf } from "./recipient-cap.server";

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

  it("counts several mails at once as if written one after the other: the first within the cap, then held", async () => {
    const cap = { perDay: 3, siteUrl: "https://example.ch", now: new Date("2027-01-13T09:00:00Z") };
    const mail = (recipient: string, subject: string) => ({ kind: "booking-reminder", recipient, subject, text: "…" });
    const first = await database.db.transaction((tx) =>
      enqueueVisitorMail(cap, tx, mail("lea@example.ch", "Confirmation")),
    );
    expect(first).not.toBeNull();
    const batch = await database.db.transaction((tx) =>
      enqueueVisitorMails(cap, tx, [
        mail("lea+1@example.ch", "Rappel 1"),
        mail("paul@example.ch", "Pour Paul"),
        mail("Lea@example.ch", "Rappel 2"),
        mail("lea@example.ch", "Rappel 3"),
        mail("lea@example.ch", "Rappel 4"),
      ]),
    );
    expect(batch.map((id) => id !== null)).toEqual([true, true, true, false, false]);
    const written = await database.db
      .select()
      .from(outbox)
      .where(
        inArray(
          outbox.id,
          batch.filter((id) => id !== null),
        ),
      );
    expect(written.map((row) => row.subject).sort()).toEqual(["Pour Paul", "Rappel 1", "Rappel 2"]);
    const notices = async () =>
      (await database.db.select().from(outbox).where(eq(outbox.kind, MAIL_HELD_NOTICE))).filter((row) =>
        row.textBody!.includes("lea@example.ch"),
      );
    // One notice to the owner, naming the first mail held.
    expect((await notices()).map((row) => row.textBody!.includes("« Rappel 3 »"))).toEqual([true]);
    const later = await database.db.transaction((tx) =>
      enqueueVisitorMails(cap, tx, [mail("lea@example.ch", "Rappel 5")]),
    );
    expect(later).toEqual([null]);
    expect(await notices()).toHaveLength(1);
  });

  it("keeps distinct mailboxes apart", () => {
    expect(mailboxOf(" Marie.Dupont+cours@Example.CH ")).toBe("marie.dupont@example.ch");
    expect(mailboxOf("marie@example.ch")).not.toBe(mailboxOf("marie@example.com"));
    expect(mailboxOf("+tag@example.ch")).toBe("+tag@example.ch");
  });
});
