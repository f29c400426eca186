/**
 * The SMS channel (decision 051) on one PGlite database and a fake of
 * ASPSMS's JSON API: which numbers get an SMS, what the provider receives,
 * permanent and temporary refusals through the outbox worker, the cap a
 * number a day, the signed receipt links, and the settings that choose the
 * provider.
 */
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox } from "~/db/schema";
import { loadSettings } from "~/config/settings.server";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { startFakeAspsms, type FakeAspsms } from "../../tests/support/aspsms";
import { OutboxWorker } from "./outbox.server";
import { aspsmsSender, enqueueSms, mobileNumber, readReceipt, receiptUrls, smsSenderFrom } from "./sms.server";

const NOW = new Date("2026-10-01T08:00:00Z");
const logger = pino({ level: "silent" });
let database: TestDatabase;
let fake: FakeAspsms;
beforeAll(async () => {
  [database, fake] = await Promise.all([openTestDatabase(), startFakeAspsms()]);
});
afterAll(async () => {
  await Promise.all([database?.close(), fake?.close()]);
});

const sender = () =>
  aspsmsSender({
    endpoint: fake.url,
    userKey: "USERKEY1",
    password: "secret-password",
    originator: "CoursInfo",
    receipts: receiptUrls("https://cours.example.ch", "secret-password"),
  });

/** The outbox worker without SMTP, sending SMS to the fake, at `at`. */
const worker = (at = NOW) =>
  new OutboxWorker({
    db: database.db,
    logger,
    transport: null,
    sms: sender(),
    from: "site@example.ch",
    plugs: [],
    ownerAddress: undefined,
    clock: () => at.getTime(),
  });

const sms = (to: string, text = "Rappel : cours demain.") =>
  enqueueSms(
    database.db,
    { kind: "test-sms", to, label: "SMS : essai", text, person: { name: "Marie Dupont" } },
    { perDay: 3, now: NOW },
  );

describe("mobileNumber", () => {
  it("gives Swiss and Liechtenstein mobile numbers in E.164, and nothing for a landline or a foreign number", () => {
    expect(mobileNumber("079 123 45 67")).toBe("+41791234567");
    expect(mobileNumber("+41 76 555 12 34")).toBe("+41765551234");
    expect(mobileNumber("0041 78 900 11 22")).toBe("+41789001122");
    expect(mobileNumber("021 123 45 67")).toBeNull();
    expect(mobileNumber("0800 123 456")).toBeNull();
    expect(mobileNumber("+33 6 12 34 56 78")).toBeNull();
    expect(mobileNumber("pas de numéro")).toBeNull();
    expect(mobileNumber(null)).toBeNull();
  });
});

describe("the outbox's SMS channel through ASPSMS", () => {
  it("sends an SMS row to the provider, with its text, number and signed receipt links, and marks it sent", async () => {
    const id = await sms("+41791110001", "Mot code : TULIPE.");
    expect(await worker().processOnce()).toMatchObject({ claimed: 1, sent: 1, failed: 0 });
    const request = fake.received.at(-1)!;
    expect(request).toMatchObject({
      UserName: "USERKEY1",
      Password: "secret-password",
      Originator: "CoursInfo",
      Recipients: ["+41791110001"],
      MessageText: "Mot code : TULIPE.",
    });
    const delivered = new URL(request.URLDeliveryNotification!);
    expect(delivered.origin + delivered.pathname).toBe("https://cours.example.ch/webhooks/sms");
    expect(readReceipt(delivered.searchParams, "secret-password")).toEqual({ outboxId: id, delivered: true });
    const failed = new URL(request.URLNonDeliveryNotification!);
    expect(readReceipt(failed.searchParams, "secret-password")).toEqual({ outboxId: id, delivered: false });
    const [row] = await database.db.select().from(outbox).where(eq(outbox.id, id!));
    expect(row).toMatchObject({ channel: "sms", attempts: 1, failedAt: null });
    expect(row!.sentAt).not.toBeNull();
    expect(row!.named).toEqual([{ name: "Marie Dupont", phone: "+41791110001" }]);
  });

  it("fails an SMS the provider refuses for good at once, and retries one refused for a while", async () => {
    const refused = await sms("+41791110002");
    fake.answerNext("11");
    expect(await worker().processOnce()).toMatchObject({ claimed: 1, sent: 0, failed: 1 });
    const [permanent] = await database.db.select().from(outbox).where(eq(outbox.id, refused!));
    expect(permanent!.failedAt).not.toBeNull();
    expect(permanent).toMatchObject({ errorStage: "message", errorCode: 11 });

    const later = await sms("+41791110003");
    fake.answerNext("5"); // no credits left: the operator buys some, the SMS leaves then
    expect(await worker().processOnce()).toMatchObject({ claimed: 1, sent: 0, failed: 1 });
    const [temporary] = await database.db.select().from(outbox).where(eq(outbox.id, later!));
    expect(temporary).toMatchObject({ failedAt: null, sentAt: null, errorStage: "sender" });
    expect(new Date(temporary!.nextAttemptAt).getTime()).toBe(NOW.getTime() + 60_000);
    fake.answerNext("1", 503);
    const retry = worker(new Date(NOW.getTime() + 60_000));
    expect(await retry.processOnce()).toMatchObject({ claimed: 1, failed: 1 });
    const [again] = await database.db.select().from(outbox).where(eq(outbox.id, later!));
    expect(again).toMatchObject({ failedAt: null, attempts: 2 });
  });

  it("writes at most SMS_PER_NUMBER_PER_DAY SMS to one number a day", async () => {
    const ids = [];
    for (let n = 0; n < 4; n++) ids.push(await sms("+41791110009"));
    expect(ids.slice(0, 3).every((id) => typeof id === "number")).toBe(true);
    expect(ids[3]).toBeNull();
    expect(await sms("+41791110010")).not.toBeNull();
  });

  it("refuses a receipt whose signature, state or row was changed", () => {
    const links = receiptUrls("https://cours.example.ch", "secret-password")(42);
    const query = new URL(links.delivered).searchParams;
    expect(readReceipt(query, "secret-password")).toEqual({ outboxId: 42, delivered: true });
    expect(readReceipt(query, "another-password")).toBeNull();
    for (const [name, value] of [
      ["id", "43"],
      ["etat", "echec"],
      ["sig", "x".repeat(22)],
      ["id", "0"],
    ]) {
      const changed = new URLSearchParams(query);
      changed.set(name!, value!);
      expect(readReceipt(changed, "secret-password")).toBeNull();
    }
  });
});

describe("SMS settings", () => {
  it("uses the log adapter by default, and names each missing or wrong variable", () => {
    expect(smsSenderFrom(loadSettings({}), logger)).toMatchObject({ name: "log", delivers: false });
    expect(() => loadSettings({ SMS_PROVIDER: "twilio" })).toThrow(/SMS_PROVIDER: must be log or aspsms/);
    expect(() => loadSettings({ SMS_PROVIDER: "aspsms" })).toThrow(
      /ASPSMS_USERKEY: is required[\s\S]*ASPSMS_PASSWORD: is required[\s\S]*SMS_FROM: is required/,
    );
    expect(() => loadSettings({ SMS_FROM: "Cours Info Suisse" })).toThrow(/SMS_FROM: must be up to 11 letters/);
    expect(() => loadSettings({ SMS_PER_NUMBER_PER_DAY: "0" })).toThrow(/SMS_PER_NUMBER_PER_DAY/);
    const aspsms = loadSettings({
      SMS_PROVIDER: "aspsms",
      ASPSMS_USERKEY: "USERKEY1",
      ASPSMS_PASSWORD: "secret-password",
      SMS_FROM: "CoursInfo",
    });
    expect(aspsms).toMatchObject({ ASPSMS_URL: "https://json.aspsms.com", SMS_PER_NUMBER_PER_DAY: 3 });
    expect(smsSenderFrom(aspsms, logger)).toMatchObject({ name: "aspsms", delivers: true });
    // The password is never repeated in the message.
    expect(() => loadSettings({ SMS_PROVIDER: "aspsms", ASPSMS_PASSWORD: "a b" })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("a b") }),
    );
  });
});
