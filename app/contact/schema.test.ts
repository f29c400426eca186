import { describe, expect, it } from "vitest";
import { contactMessages, contactSchema } from "./schema";
import { schemaErrors } from "../../tests/support/schema-errors";

const valid = {
  firstName: "Marie",
  lastName: "Dupont",
  email: "marie@example.ch",
  phone: "+41 (0)21 123-45.67",
  service: "small-group",
  message: "Bonjour,\r\nmerci !\tÀ bientôt",
  newsletterConsent: false,
};

const errorsOf = (input: Record<string, unknown>) => schemaErrors(contactSchema, input);

describe("contactSchema", () => {
  it("accepts a valid request, line breaks in the message included", () => {
    expect(contactSchema.safeParse(valid).success).toBe(true);
    expect(contactSchema.safeParse({ ...valid, message: undefined }).success).toBe(true);
  });

  it("gives the spec's five messages for an empty form", () => {
    expect(errorsOf({})).toEqual({
      firstName: contactMessages.firstName,
      lastName: contactMessages.lastName,
      email: contactMessages.email,
      phone: contactMessages.phone,
      service: contactMessages.service,
    });
  });

  it("applies the spec's minimums: names 2, phone 10", () => {
    expect(errorsOf({ ...valid, firstName: " M " }).firstName).toBe(contactMessages.firstName);
    expect(errorsOf({ ...valid, phone: "021 12 34" }).phone).toBe(contactMessages.phone);
    expect(errorsOf({ ...valid, email: "marie@" }).email).toBe(contactMessages.email);
    expect(errorsOf({ ...valid, service: "premium" }).service).toBe(contactMessages.service);
  });

  it("applies the upper bounds with French messages", () => {
    expect(errorsOf({ ...valid, firstName: "a".repeat(101) }).firstName).toMatch(/au plus 100 caractères/);
    expect(errorsOf({ ...valid, email: `${"a".repeat(250)}@example.ch` }).email).toMatch(/au plus 254 caractères/);
    expect(errorsOf({ ...valid, phone: "1".repeat(31) }).phone).toMatch(/au plus 30 caractères/);
    expect(errorsOf({ ...valid, message: "a".repeat(5001) }).message).toMatch(/au plus 5000 caractères/);
  });

  it("refuses letters in the phone and control characters anywhere", () => {
    expect(errorsOf({ ...valid, phone: "+41 21 ABC 45 67" }).phone).toMatch(/chiffres/);
    expect(errorsOf({ ...valid, firstName: "Marie\r\nBcc: x@example.com" }).firstName).toMatch(/non autorisés/);
    expect(errorsOf({ ...valid, lastName: "Du\u0000pont" }).lastName).toMatch(/non autorisés/);
    expect(errorsOf({ ...valid, message: "a\u0007b" }).message).toMatch(/non autorisés/);
  });
});
