/**
 * Offers and cancellations by SMS, and the SMS the daily cap holds
 * (decision 060), on one PGlite database and a fixed clock: a freed seat
 * offered to a waiting person without e-mail who agreed to SMS at a mobile
 * number goes by SMS with the offer page's link and the code word, no
 * name; a landline without e-mail lands on the call list with the hold's
 * end; an SMS the per-number cap holds puts the person on the call list
 * (« SMS retenu ») instead of waiting unseen; a cancelled session tells by
 * mail, SMS or the call list; an SMS reminder held by the cap puts the
 * person on the date's call list once and on « À appeler demain ».
 */
import { and, eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courseCalls, courseOffers, courseRegistrations, outbox } from "~/db/schema";
import { enqueueSms, mobileNumber } from "~/mail/sms.server";
import { saveSettingsSection } from "~/settings/site.server";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { BOOKING_NOW as NOW, BOOKING_SITE_URL as siteUrl, newSessionIn, person } from "../../tests/support/bookings";
import { cancelRegistration, cancelSession, registerForSession } from "./booking.server";
import { callsOf } from "./calls.server";
import { OFFER_SMS_KIND } from "./offer-mails.server";
import { callList, runSmsReminders } from "./reminder-channels.server";
import { zurichToUtc } from "./sessions.server";
import type { SmsChannel } from "./sms-channel.server";
import { CANCELLED_SMS_KIND } from "./tell.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
  await saveSettingsSection(database.db, "courses", { offerHoldHours: 24, goNoGoDays: 3, cancelDeadlineHours: 0 });
});
afterAll(() => database?.close());

const logger = pino({ level: "silent" });
const sms: SmsChannel = { perDay: 3, delivers: true, logger };
const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);
const smsTo = (phone: string, kind: string) =>
  database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, mobileNumber(phone)!), eq(outbox.kind, kind)));
const offerOf = async (registrationId: number) =>
  (await database.db.select().from(courseOffers).where(eq(courseOffers.registrationId, registrationId)))[0];

/** A session of 1 seat in `inHours`, taken by person `holder`; `waiting` wait after, in order. */
async function fullSession(inHours: number, holder: number, waiting: Parameters<typeof person>[2][]) {
  const sessionId = await newSessionIn(database.db, { startsAt: hours(inHours), capacity: 1, minimum: 1 });
  const held = await registerForSession(database.db, person(sessionId, holder), { siteUrl, now: NOW });
  if (held.outcome !== "confirmed") throw new Error(held.outcome);
  const ids: number[] = [];
  for (const [index, extra] of waiting.entries()) {
    const result = await registerForSession(database.db, person(sessionId, holder + 1 + index, extra), {
      siteUrl,
      now: NOW,
    });
    if (result.outcome !== "waiting") throw new Error(result.outcome);
    ids.push(result.registrationId);
  }
  return { sessionId, held, ids };
}

describe("offers by SMS", () => {
  it("offers a freed seat by SMS to a mobile that agreed, with the offer page's link and the code word, no name", async () => {
    const { held, ids, sessionId } = await fullSession(72, 300, [
      { email: "", phone: "079 555 30 01", smsConsent: "on" },
    ]);
    expect(await cancelRegistration(database.db, held.token, { siteUrl, now: NOW, sms })).toBe("cancelled");
    expect(await offerOf(ids[0]!)).toMatchObject({ state: "open", channel: "sms" });
    const [row] = await smsTo("079 555 30 01", OFFER_SMS_KIND);
    const [registration] = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.id, ids[0]!));
    expect(row).toMatchObject({ channel: "sms" });
    // Unsent by the hold's end, it is given up.
    expect(new Date(row!.notAfter!)).toEqual(hours(24));
    expect(registration!.mailIds).toContain(row!.id);
    expect(row!.textBody).toContain(
      'Une place s\'est libérée pour vous : cours " Sécurité et protection ", dimanche 4 octobre 2026, 10 h 00',
    );
    expect(row!.textBody).toContain("jusqu'au vendredi 2 octobre 2026, 10 h 00");
    expect(row!.textBody).toContain(`Mot code : ${registration!.codeWord}.`);
    expect(row!.textBody).toMatch(/https:\/\/cours\.example\.ch\/cours\/place\/[A-Za-z0-9_-]{43}$/);
    expect(row!.textBody).not.toMatch(/Marie|Dupont/);
    // GSM 7-bit (é and à are in it): no typographic quote, apostrophe or no-break space.
    expect(row!.textBody).not.toMatch(/[«»’\u00a0\u202f]/);
    // Nobody to call: the SMS reaches her.
    expect((await callsOf(database.db, sessionId)).map((call) => call.name)).toEqual([]);
  });

  it("puts a landline without e-mail on the call list with the hold's end, and so without the SMS settings", async () => {
    const landline = await fullSession(96, 310, [{ email: "", phone: "021 555 31 01", smsConsent: "on" }]);
    await cancelRegistration(database.db, landline.held.token, { siteUrl, now: NOW, sms });
    expect(await offerOf(landline.ids[0]!)).toMatchObject({ state: "open", channel: "call" });
    expect(await callsOf(database.db, landline.sessionId)).toMatchObject([
      { name: "Marie Dupont 311", phone: "021 555 31 01", reason: "offer", smsHeld: false },
    ]);
    expect(new Date((await callsOf(database.db, landline.sessionId))[0]!.holdUntil!)).toEqual(hours(24));

    // A caller without SMS settings (no SMS can be written): the mobile is called.
    const bare = await fullSession(96, 320, [{ email: "", phone: "079 555 32 01", smsConsent: "on" }]);
    await cancelRegistration(database.db, bare.held.token, { siteUrl, now: NOW });
    expect(await offerOf(bare.ids[0]!)).toMatchObject({ channel: "call" });
    expect(await smsTo("079 555 32 01", OFFER_SMS_KIND)).toEqual([]);
    expect((await callsOf(database.db, bare.sessionId)).map((call) => call.reason)).toEqual(["offer"]);
  });

  it("calls the person whose offer SMS the daily cap held, and says so", async () => {
    const { held, sessionId, ids } = await fullSession(120, 330, [
      { email: "", phone: "079 555 33 01", smsConsent: "on" },
    ]);
    // The number already had its day's SMS.
    const to = mobileNumber("079 555 33 01")!;
    const cap = { perDay: 1, now: NOW };
    expect(
      await enqueueSms(database.db, { kind: "x", to, label: "x", text: "x", person: { name: "x" } }, cap),
    ).not.toBe(null);
    await cancelRegistration(database.db, held.token, { siteUrl, now: NOW, sms: { ...sms, perDay: 1 } });
    expect(await smsTo("079 555 33 01", OFFER_SMS_KIND)).toEqual([]);
    expect(await offerOf(ids[0]!)).toMatchObject({ state: "open", channel: "call" });
    expect(await callsOf(database.db, sessionId)).toMatchObject([{ reason: "offer", smsHeld: true }]);
  });
});

describe("cancellations by SMS", () => {
  it("tells each registrant by mail, SMS or the call list, and calls the one whose SMS the cap held", async () => {
    const sessionId = await newSessionIn(database.db, { startsAt: hours(200), capacity: 8, minimum: 1 });
    const book = (n: number, extra: Parameters<typeof person>[2]) =>
      registerForSession(database.db, person(sessionId, n, extra), { siteUrl, now: NOW });
    await book(341, {});
    await book(342, { email: "", phone: "079 555 34 02", smsConsent: "on" });
    await book(343, { email: "", phone: "021 555 34 03" });
    await book(344, { email: "", phone: "079 555 34 04", smsConsent: "on" });
    const capped = { perDay: 1, now: NOW };
    const to = mobileNumber("079 555 34 04")!;
    await enqueueSms(database.db, { kind: "x", to, label: "x", text: "x", person: { name: "x" } }, capped);

    const told = await cancelSession(database.db, sessionId, NOW, { ...sms, perDay: 1 });
    expect(told).toMatchObject({ mailed: 1, texted: 1 });
    expect(told!.toCall.map((call) => call.name)).toEqual(["Marie Dupont 343", "Marie Dupont 344"]);
    const [text] = await smsTo("079 555 34 02", CANCELLED_SMS_KIND);
    expect(text!.textBody).toMatch(
      /^Cours "[^"]+", \w+ 9 octobre 2026, 18 h 00, .+ : je suis désolé, la séance est annulée\./,
    );
    expect(text!.textBody).not.toMatch(/Marie|Dupont/);
    expect(await smsTo("079 555 34 04", CANCELLED_SMS_KIND)).toEqual([]);
    expect(await callsOf(database.db, sessionId)).toMatchObject([
      { name: "Marie Dupont 343", reason: "cancelled", smsHeld: false },
      { name: "Marie Dupont 344", reason: "cancelled", smsHeld: true },
    ]);
  });
});

describe("SMS reminders the cap holds", () => {
  it("puts the person on the date's call list once, and on « À appeler demain »", async () => {
    const startsAt = zurichToUtc("2026-11-19", "14:00");
    const sessionId = await newSessionIn(database.db, { startsAt });
    const booked = await registerForSession(
      database.db,
      person(sessionId, 351, { phone: "079 555 35 01", smsConsent: "on" }),
      { siteUrl, now: NOW },
    );
    if (booked.outcome !== "confirmed") throw new Error(booked.outcome);
    const dayBefore = zurichToUtc("2026-11-18", "15:00");
    const to = mobileNumber("079 555 35 01")!;
    await enqueueSms(
      database.db,
      { kind: "x", to, label: "x", text: "x", person: { name: "x" } },
      { perDay: 1, now: dayBefore },
    );
    // She has an e-mail, but she asked for an SMS: the owner sees that it was held.
    expect((await callList(database.db, dayBefore, true)).map((line) => line.name)).toEqual([]);
    for (let run = 0; run < 2; run++)
      expect(await runSmsReminders(database.db, dayBefore, { siteUrl, perDay: 1, logger })).toEqual({
        smsReminders: 0,
      });
    const calls = await database.db.select().from(courseCalls).where(eq(courseCalls.sessionId, sessionId));
    expect(calls).toMatchObject([{ registrationId: booked.registrationId, reason: "reminder", smsHeld: true }]);
    expect((await callList(database.db, dayBefore, true)).map((line) => [line.name, line.smsHeld])).toEqual([
      ["Marie Dupont 351", true],
    ]);
  });
});
