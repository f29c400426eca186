/**
 * Mailgun's webhook (decision 044): `readMailgunWebhook(body, options)`
 * checks a POSTed JSON body and turns it into a `ProviderEvent`
 * (provider-events.server.ts). The body, as Mailgun sends it:
 *
 *   { "signature": { "timestamp": "1764241200", "token": "<50 hex>", "signature": "<64 hex>" },
 *     "event-data": { "event": "failed" | "complained" | "delivered" | …,
 *                     "severity": "permanent" | "temporary", "recipient": "marie@example.ch",
 *                     "message": { "headers": { "message-id": "o42.…@exemple.ch" } },
 *                     "delivery-status": { "code": 550, "message": "No such user" } } }
 *
 * `signature` is the hex HMAC-SHA256, keyed with the webhook signing key,
 * of `timestamp` followed by `token`. A body is refused when the signature
 * is wrong (compared in constant time), when its timestamp (seconds) is
 * more than 5 minutes from the clock, or when its token was seen in the
 * last 5 minutes (`ReplayGuard`: in this process; a replay beyond marks the
 * same row again, a no-op).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { ProviderEvent } from "./provider-events.server";

/** How far a signed timestamp may be from the clock, either way. */
export const SIGNATURE_MAX_AGE_MS = 5 * 60_000;

const mailgunBody = z.object({
  signature: z.object({
    timestamp: z.union([z.string(), z.number()]).transform(String),
    token: z.string().min(1).max(200),
    signature: z.string().max(200),
  }),
  "event-data": z
    .object({
      event: z.string(),
      severity: z.string().optional(),
      recipient: z.string().max(320).optional(),
      message: z.object({ headers: z.object({ "message-id": z.string().max(998).optional() }).partial() }).partial(),
      "delivery-status": z
        .object({
          code: z.union([z.number(), z.string()]).optional(),
          message: z.string().optional(),
          description: z.string().optional(),
        })
        .partial(),
    })
    .partial({ message: true, "delivery-status": true }),
});

/** The tokens of the last 5 minutes, in this process: a signed body is accepted once. */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  /** False when `token` was seen since `now - SIGNATURE_MAX_AGE_MS`; otherwise remembers it and says true. */
  firstTime(token: string, now: number): boolean {
    for (const [old, at] of this.seen) {
      if (at > now - SIGNATURE_MAX_AGE_MS) break; // insertion order: the rest are newer
      this.seen.delete(old);
    }
    if (this.seen.has(token)) return false;
    this.seen.set(token, now);
    return true;
  }
}

/** What a webhook body comes to. */
export type WebhookReading =
  /** Signed and fresh; `event` null: an event the site does not act on (delivered, opened…). */
  | { accepted: true; event: ProviderEvent | null }
  /** Refused (4xx), nothing done; `why` is for the log (no personal data). */
  | { accepted: false; status: 400 | 401 | 409; why: string };

/**
 * Reads Mailgun's webhook `body` (parsed JSON), signed with `signingKey`,
 * at `now` (milliseconds), remembering its token in `replays`. Never throws.
 */
export function readMailgunWebhook(
  body: unknown,
  { signingKey, now, replays }: { signingKey: string; now: number; replays: ReplayGuard },
): WebhookReading {
  const parsed = mailgunBody.safeParse(body);
  if (!parsed.success) return { accepted: false, status: 400, why: "not a Mailgun webhook body" };
  const { signature, "event-data": data } = parsed.data;
  const expected = createHmac("sha256", signingKey).update(`${signature.timestamp}${signature.token}`).digest();
  const given = /^[0-9a-f]{64}$/i.test(signature.signature) ? Buffer.from(signature.signature, "hex") : null;
  if (!given || !timingSafeEqual(given, expected)) return { accepted: false, status: 401, why: "wrong signature" };
  const signedAt = Number(signature.timestamp) * 1000;
  if (!Number.isFinite(signedAt) || Math.abs(now - signedAt) > SIGNATURE_MAX_AGE_MS)
    return { accepted: false, status: 401, why: "timestamp more than 5 minutes away" };
  if (!replays.firstTime(signature.token, now)) return { accepted: false, status: 409, why: "token already seen" };
  return { accepted: true, event: eventOf(data) };
}

/** The provider event of Mailgun's `event-data`, or null when the site does not act on it. */
function eventOf(data: z.infer<typeof mailgunBody>["event-data"]): ProviderEvent | null {
  const recipient = data.recipient?.trim();
  if (!recipient) return null;
  const messageId = data.message?.headers?.["message-id"] ?? null;
  if (data.event === "complained") return { kind: "complaint", recipient, messageId };
  if (data.event !== "failed") return null;
  const status = data["delivery-status"] ?? {};
  const code = Number(status.code);
  return {
    kind: "bounce",
    permanent: data.severity === "permanent",
    recipient,
    messageId,
    code: Number.isInteger(code) && code >= 200 && code < 600 ? code : null,
    description: status.message || status.description || null,
  };
}
