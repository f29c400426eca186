/** Mailgun's webhook read and checked (app/mail/mailgun.server.ts), on a fixed clock. */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readMailgunWebhook, ReplayGuard } from "./mailgun.server";

const KEY = "key-0123456789abcdef0123456789abcdef";
/** The fixed clock: 2026-11-27 11:00 UTC. */
const NOW = Date.parse("2026-11-27T11:00:00Z");
const seconds = (ms: number) => String(Math.floor(ms / 1000));

/** A body as Mailgun posts it, signed with `key` at `at` (ms) with `token`. */
function body(eventData: Record<string, unknown>, { at = NOW, token = "a".repeat(50), key = KEY } = {}) {
  const timestamp = seconds(at);
  const signature = createHmac("sha256", key).update(`${timestamp}${token}`).digest("hex");
  return { signature: { timestamp, token, signature }, "event-data": eventData };
}

const hardBounce = {
  event: "failed",
  severity: "permanent",
  recipient: "marie@example.ch",
  message: { headers: { "message-id": "o42.0b7c2f7e-6a55-4d0e-9a3e-2f1b8f0c9d11@exemple.ch" } },
  "delivery-status": { code: 550, message: "5.1.1 No such user" },
};

const read = (value: unknown, replays = new ReplayGuard(), now = NOW) =>
  readMailgunWebhook(value, { signingKey: KEY, now, replays });

describe("readMailgunWebhook", () => {
  it("turns a signed permanent failure into a permanent bounce with its code and words", () => {
    expect(read(body(hardBounce))).toEqual({
      accepted: true,
      event: {
        kind: "bounce",
        permanent: true,
        recipient: "marie@example.ch",
        messageId: "o42.0b7c2f7e-6a55-4d0e-9a3e-2f1b8f0c9d11@exemple.ch",
        code: 550,
        description: "5.1.1 No such user",
      },
    });
  });

  it("turns a complaint into a complaint, a temporary failure into a temporary bounce, ignores a delivery", () => {
    expect(read(body({ event: "complained", recipient: "bea@example.ch" }))).toEqual({
      accepted: true,
      event: { kind: "complaint", recipient: "bea@example.ch", messageId: null },
    });
    expect(read(body({ ...hardBounce, severity: "temporary", "delivery-status": { code: 452 } }))).toMatchObject({
      accepted: true,
      event: { kind: "bounce", permanent: false, code: 452 },
    });
    expect(read(body({ event: "delivered", recipient: "marie@example.ch" }))).toEqual({ accepted: true, event: null });
  });

  it("refuses a signature made with another key, or not hexadecimal (401)", () => {
    expect(read(body(hardBounce, { key: "another-key-0123456789" }))).toMatchObject({ accepted: false, status: 401 });
    const forged = body(hardBounce);
    forged.signature.signature = "z".repeat(64);
    expect(read(forged)).toMatchObject({ accepted: false, status: 401 });
  });

  it("refuses a timestamp more than 5 minutes old or ahead (401), accepts one 4 minutes old", () => {
    expect(read(body(hardBounce, { at: NOW - 5 * 60_000 - 1000 }))).toMatchObject({ accepted: false, status: 401 });
    expect(read(body(hardBounce, { at: NOW + 6 * 60_000 }))).toMatchObject({ accepted: false, status: 401 });
    expect(read(body(hardBounce, { at: NOW - 4 * 60_000 }))).toMatchObject({ accepted: true });
  });

  it("refuses a token seen before (409), even with other event data, and forgets it after 5 minutes", () => {
    const replays = new ReplayGuard();
    const first = body(hardBounce);
    expect(read(first, replays)).toMatchObject({ accepted: true });
    expect(read(first, replays)).toMatchObject({ accepted: false, status: 409 });
    const otherData = { ...first, "event-data": { ...hardBounce, recipient: "dora@example.ch" } };
    expect(read(otherData, replays, NOW + 60_000)).toMatchObject({ accepted: false, status: 409 });
    // Past 5 minutes the token is forgotten, and the timestamp refuses the body instead.
    expect(read(first, replays, NOW + 6 * 60_000)).toMatchObject({ accepted: false, status: 401 });
    expect(read(body(hardBounce, { at: NOW + 6 * 60_000 }), replays, NOW + 6 * 60_000)).toMatchObject({
      accepted: true,
    });
  });

  it.each([null, "text", {}, { signature: {} }, { signature: { timestamp: "1", token: "t" } }])(
    "refuses a body that is not Mailgun's (400): %j",
    (value) => {
      expect(read(value)).toMatchObject({ accepted: false, status: 400 });
    },
  );
});
