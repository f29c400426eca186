import { describe, expect, it } from "vitest";
import { contactMessages, contactSchema, groupDetails, GROUP_SERVICE, serviceChoices } from "./schema";
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

describe("contactSchema for a talk or workshop for a group (issue 24, item 10)", () => {
  const group = {
    ...valid,
    service: GROUP_SERVICE,
    organisation: " Club des aînés ",
    commune: "Morges",
    groupSize: " 25 ",
  };

  it("offers the choice with its French label", () => {
    expect(serviceChoices.map((choice) => choice.label)).toContain("Conférence ou atelier pour un groupe");
  });

  it("accepts a group's request and gives its details trimmed, the size as a number", () => {
    const parsed = contactSchema.parse(group);
    expect(groupDetails(parsed)).toEqual({ organisation: "Club des aînés", commune: "Morges", groupSize: 25 });
  });

  it("asks for the organisation, the commune and the size, with the other fields' messages at once", () => {
    expect(errorsOf({ service: GROUP_SERVICE })).toEqual({
      firstName: contactMessages.firstName,
      lastName: contactMessages.lastName,
      email: contactMessages.email,
      phone: contactMessages.phone,
      organisation: contactMessages.organisation,
      commune: contactMessages.commune,
      groupSize: contactMessages.groupSize,
    });
  });

  it("takes a whole number of people from 2 to 300, written in digits", () => {
    for (const size of ["2", "300", "045"]) expect(errorsOf({ ...group, groupSize: size })).toEqual({});
    for (const size of ["1", "0", "301", "-5", "12.5", "1e2", "douze", "0x10", "9999999"])
      expect(errorsOf({ ...group, groupSize: size }), size).toEqual({ groupSize: contactMessages.groupSize });
  });

  it("applies the names' rules to the organisation and the commune", () => {
    expect(errorsOf({ ...group, organisation: "A" }).organisation).toBe(contactMessages.organisation);
    expect(errorsOf({ ...group, commune: "x".repeat(101) }).commune).toMatch(/au plus 100 caractères/);
    expect(errorsOf({ ...group, organisation: "Club\r\nBcc: x@example.com" }).organisation).toMatch(/non autorisés/);
  });

  it("ignores the group's fields for the other services (shown without JavaScript, left as typed)", () => {
    const other = { ...valid, organisation: "A", commune: "", groupSize: "beaucoup" };
    expect(errorsOf(other)).toEqual({});
    expect(groupDetails(contactSchema.parse(other))).toEqual({});
  });
});
