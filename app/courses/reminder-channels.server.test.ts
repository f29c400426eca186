/**
 * Reminders by channel (decision 051) on one PGlite database, a fixed clock
 * and a fake of ASPSMS's API: a mobile number that agreed gets one SMS with
 * the code word and its short link, even when the job first runs long after
 * the reminder time (the server was stopped) and again on another process;
 * a landline without e-mail is on the call list instead; an erasure takes
 * the SMS and the consent with the registration.
 */
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courseRegistrations, outbox } from "~/db/schema";
import { erasePerson } from "~/features.server";
import { OutboxWorker } from "~/mail/outbox.server";
import { aspsmsSender } from "~/mail/sms.server";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { startFakeAspsms, type FakeAspsms } from "../../tests/support/aspsms";
import { BOOKING_NOW as NOW, BOOKING_SITE_URL as siteUrl, newSessionIn, person } from "../../tests/support/bookings";
import { registerForSession } from "./booking.server";
import { callList, reminderChannels, runSmsReminders, SMS_REMINDER_KIND } from "./reminder-channels.server";
import { zurichToUtc } from "./sessions.server";

let database: TestDatabase;
let fake: FakeAspsms;
beforeAll(async () => {
  [database, fake] = await Promise.all([openTestDatabase(), startFakeAspsms()]);
});
afterAll(async () => {
  await Promise.all([database?.close(), fake?.close()]);
});

const logger = pino({ level: "silent" });
const options = { siteUrl, perDay: 3, logger };
const smsRows = () => database.db.select().from(outbox).where(eq(outbox.kind, SMS_REMINDER_KIND));

describe("reminders by channel", () => {
  it("sends one SMS with the code word and the short link, even when the job first runs late and runs twice", async () => {
    const startsAt = zurichToUtc("2026-10-25", "14:00");
    const sessionId = await newSessionIn(database.db, { startsAt });
    const sms = await registerForSession(
      database.db,
      person(sessionId, 1, { phone: "079 555 12 34", email: undefined, smsConsent: "on" }),
      { siteUrl, now: NOW },
    );
    // A mobile without consent, and a consent on a landline: no SMS.
    await registerForSession(database.db, person(sessionId, 2, { phone: "079 555 56 78" }), { siteUrl, now: NOW });
    await registerForSession(database.db, person(sessionId, 3, { phone: "021 555 00 11", smsConsent: "on" }), {
      siteUrl,
      now: NOW,
    });
    if (sms.outcome !== "confirmed") throw new Error(sms.outcome);

    // Two days before: not due yet.
    expect(await runSmsReminders(database.db, zurichToUtc("2026-10-23", "14:00"), options)).toEqual({
      smsReminders: 0,
    });
    // The server was stopped from before the reminder time (24 hours before) until 3 hours before the lesson:
    // the first run after the restart writes it; a second process (or the next minute) writes nothing more.
    const late = zurichToUtc("2026-10-25", "11:00");
    expect(await runSmsReminders(database.db, late, options)).toEqual({ smsReminders: 1 });
    expect(await runSmsReminders(database.db, late, options)).toEqual({ smsReminders: 0 });
    expect(await runSmsReminders(database.db, zurichToUtc("2026-10-25", "13:00"), options)).toEqual({
      smsReminders: 0,
    });
    const rows = await smsRows();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    const [registration] = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.id, sms.registrationId));
    expect(row).toMatchObject({ channel: "sms", recipient: "+41795551234" });
    expect(registration!.mailIds).toContain(row!.id);
    expect(row!.textBody).toContain(`Mot code : ${registration!.codeWord}.`);
    expect(row!.textBody).toMatch(/https:\/\/cours\.example\.ch\/r\/[A-Za-z0-9_-]{43}$/);
    expect(row!.textBody).not.toContain("Marie");
    expect(row!.textBody).not.toContain("Dupont");

    const worker = new OutboxWorker({
      db: database.db,
      logger,
      transport: null,
      sms: aspsmsSender({ endpoint: fake.url, userKey: "KEY1", password: "pass", originator: "Cours", receipts: null }),
      from: "site@example.ch",
      plugs: [],
      ownerAddress: undefined,
      clock: () => late.getTime(),
    });
    expect(await worker.processOnce()).toMatchObject({ sent: 1 });
    expect(await worker.processOnce()).toMatchObject({ claimed: 0 });
    expect(fake.received).toHaveLength(1);
    expect(fake.received[0]!.Recipients).toEqual(["+41795551234"]);
    expect(fake.received[0]!.MessageText).toContain(`Mot code : ${registration!.codeWord}.`);
  });

  it("puts a landline without e-mail on the call list of the day before, not those a mail or an SMS reaches", async () => {
    const startsAt = zurichToUtc("2026-11-12", "09:30");
    const sessionId = await newSessionIn(database.db, { startsAt });
    const book = (n: number, extra: Parameters<typeof person>[2]) =>
      registerForSession(database.db, person(sessionId, n, extra), { siteUrl, now: NOW });
    await book(11, { phone: "021 555 11 11", email: undefined });
    await book(12, { phone: "079 555 12 12", email: undefined, smsConsent: "on" });
    await book(13, { phone: "021 555 13 13" });
    await book(14, { phone: "079 555 14 14", email: undefined });

    const dayBefore = zurichToUtc("2026-11-11", "08:00");
    const names = async (smsDelivers: boolean) =>
      (await callList(database.db, dayBefore, smsDelivers)).map((line) => line.name);
    expect(await names(true)).toEqual(["Marie Dupont 11", "Marie Dupont 14"]);
    const [first] = await callList(database.db, dayBefore, true);
    expect(first).toMatchObject({ phone: "021 555 11 11", time: "9\u00a0h\u00a030", smsHeld: false });
    expect(first!.codeWord).toMatch(/\S/);
    expect(first!.place).toContain(",");
    // No SMS leaves (SMS_PROVIDER log): the person reached by SMS only is called too.
    expect(await names(false)).toEqual(["Marie Dupont 11", "Marie Dupont 12", "Marie Dupont 14"]);
    // Two days before, or on the day: not tomorrow's list.
    expect(await callList(database.db, zurichToUtc("2026-11-10", "08:00"), true)).toEqual([]);
    expect(reminderChannels({ ...person(sessionId, 15), smsConsent: true, bookerEmail: null } as never, true)).toEqual({
      mail: true,
      sms: "+41791000015",
      call: false,
    });
  });

  it("erases the SMS reminder and the consent with the registration", async () => {
    const startsAt = zurichToUtc("2026-10-28", "14:00");
    const sessionId = await newSessionIn(database.db, { startsAt });
    const booked = await registerForSession(
      database.db,
      person(sessionId, 21, { phone: "079 555 21 21", email: undefined, smsConsent: "on" }),
      { siteUrl, now: NOW },
    );
    if (booked.outcome !== "confirmed") throw new Error(booked.outcome);
    expect(await runSmsReminders(database.db, zurichToUtc("2026-10-28", "08:00"), options)).toEqual({
      smsReminders: 1,
    });
    const [row] = (await smsRows()).filter((sms) => sms.recipient === "+41795552121");
    expect(row).toBeDefined();
    await erasePerson(database.db, { email: null, phoneE164: "+41795552121" }, null, "owner", { siteUrl, now: NOW });
    expect(await database.db.select().from(outbox).where(eq(outbox.id, row!.id))).toEqual([]);
    expect(
      await database.db.select().from(courseRegistrations).where(eq(courseRegistrations.id, booked.registrationId)),
    ).toEqual([]);
  });
});
