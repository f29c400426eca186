/**
 * Property-based: 1,000 hostile submissions to POST /contact (missing
 * fields, huge strings, any Unicode, CR/LF, wrong types, extra fields, other
 * body encodings) never get a 5xx, and nothing invalid is ever stored.
 */
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { contactSchema } from "../../app/contact/schema";
import { contacts } from "../../app/db/schema";
import { startTestServer, validForm } from "./harness";

let site: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  site = await startTestServer({});
}, 60_000);
afterAll(() => site?.close());

const FIELDS = ["firstName", "lastName", "email", "phone", "service", "message", "newsletterConsent", "website"];

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.constantFrom(
    "",
    " ",
    "\r\n",
    "Bcc: victim@example.com\r\nSubject: x",
    "a\u0000b",
    "<script>alert(1)</script>",
    "'; drop table contacts; --",
    "x".repeat(40_000),
    "é".repeat(6000),
    "+41 21 123 45 67",
    "marie@example.ch",
    "small-group",
    "on",
    "true",
    "42",
    "null",
  ),
  fc.emailAddress(),
  fc.integer().map(String),
);

const anyFields = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 20 })), hostileString, {
  maxKeys: 12,
});
// A valid request with some fields replaced, removed or added: many of these are stored.
const mutatedValid = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...FIELDS.filter((field) => field !== "website")), hostileString, { maxKeys: 2 }),
    fc.boolean(),
  )
  .map(([changes, dropMessage]) => {
    const fields: Record<string, string> = {
      ...validForm(`fuzz${Math.random().toString(36).slice(2)}@example.ch`),
      ...changes,
    };
    if (dropMessage) delete fields.message;
    return fields;
  });
const payload = fc.oneof(anyFields, mutatedValid);
const encoding = fc.constantFrom("urlencoded", "multipart", "json", "repeated");

function request(fields: Record<string, string>, kind: string): RequestInit {
  if (kind === "multipart") {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    return { method: "POST", body: form };
  }
  if (kind === "json")
    return { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(fields) };
  const params = new URLSearchParams(fields);
  if (kind === "repeated") for (const [key, value] of Object.entries(fields)) params.append(key, value);
  return { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: params.toString() };
}

it("answers 1,000 hostile payloads without a 5xx and stores nothing invalid", async () => {
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(payload, encoding, async (fields, kind) => {
      const response = await fetch(`${site.url}/contact`, request(fields, kind));
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect(response.status).toBeLessThan(500);
    }),
    { numRuns: 1000 },
  );
  const rows = await site.database.db.select().from(contacts);
  for (const row of rows) {
    const reparsed = contactSchema.safeParse({
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      phone: row.phone,
      service: row.service,
      message: row.message ?? undefined,
      newsletterConsent: row.newsletterConsent,
    });
    expect(reparsed.success, JSON.stringify(row)).toBe(true);
    expect(row.contactConsent).toBe(true);
  }
  expect(rows.length, "some hostile-but-valid requests are stored").toBeGreaterThan(50);
  console.log(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}, rows stored: ${rows.length}`);
}, 180_000);
