import { describe, expect, it } from "vitest";
import { contactMessages } from "~/contact/messages";
import { bookingMessages, bookingSchema, paymentOf } from "./schema";
import { schemaErrors } from "../../tests/support/schema-errors";

const valid = {
  sessionId: "7",
  firstName: "Marie",
  lastName: "Dupont",
  phone: "079 123 45 67",
  seats: "1",
};

const errorsOf = (input: Record<string, unknown>) => schemaErrors(bookingSchema, input);

describe("bookingSchema", () => {
  it("accepts a registration without e-mail nor message", () => {
    expect(bookingSchema.safeParse(valid).success).toBe(true);
  });

  it("gives the contact form's messages for the person's fields (one set of rules)", () => {
    expect(errorsOf({})).toEqual({
      sessionId: bookingMessages.session,
      firstName: contactMessages.firstName,
      lastName: contactMessages.lastName,
      phone: contactMessages.phone,
    });
    expect(errorsOf({ ...valid, email: "marie@" }).email).toBe(contactMessages.email);
    expect(errorsOf({ ...valid, phone: "079 ABC 45 67" }).phone).toMatch(/chiffres/);
    expect(errorsOf({ ...valid, lastName: "Du\u0000pont" }).lastName).toMatch(/non autorisés/);
    expect(errorsOf({ ...valid, message: "a".repeat(5001) }).message).toMatch(/au plus 5000 caractères/);
  });

  it("asks for the registrant's own name and telephone once one of their fields is filled", () => {
    expect(errorsOf({ ...valid, bookerEmail: "luc@example.ch" })).toEqual({
      bookerFirstName: "Indiquez votre prénom",
      bookerLastName: "Indiquez votre nom",
      bookerPhone: "Indiquez votre numéro de téléphone",
    });
    expect(errorsOf({ ...valid, bookerFirstName: "Luc", bookerLastName: "Dupont", bookerPhone: "021" })).toEqual({
      bookerPhone: contactMessages.phone,
    });
  });
});

describe("how a booking pays", () => {
  const address = { postalStreet: "Rue du Lac 3", postalCode: "1800", postalLocality: "Vevey" };
  const parsed = (input: Record<string, unknown>) => bookingSchema.parse({ ...valid, ...input });

  it("asks the postal address once « Sur facture » is chosen, with a Swiss NPA of 4 digits", () => {
    expect(errorsOf({ ...valid, paysBy: "facture" })).toEqual({
      postalStreet: bookingMessages.postalStreet,
      postalCode: bookingMessages.postalCode,
      postalLocality: bookingMessages.postalLocality,
    });
    expect(errorsOf({ ...valid, paysBy: "facture", ...address, postalCode: "18000" })).toEqual({
      postalCode: bookingMessages.postalCodeFormat,
    });
    expect(errorsOf({ ...valid, paysBy: "sur-place" })).toEqual({});
    expect(errorsOf({ ...valid, paysBy: "virement" }).paysBy).toBe(bookingMessages.paysBy);
  });

  it("follows the date: on site ignores the address, by invoice needs it, « au choix » needs the choice", () => {
    expect(paymentOf("sur-place", parsed({ paysBy: "facture", ...address }))).toEqual({
      ok: true,
      payment: { paysBy: "sur-place", postalStreet: null, postalCode: null, postalLocality: null },
    });
    expect(paymentOf("facture", parsed({}))).toEqual({
      ok: false,
      errors: {
        postalStreet: [bookingMessages.postalStreet],
        postalCode: [bookingMessages.postalCode],
        postalLocality: [bookingMessages.postalLocality],
      },
    });
    expect(paymentOf("facture", parsed({ paysBy: "sur-place" }))).toEqual({
      ok: false,
      errors: { paysBy: [bookingMessages.invoiceOnly] },
    });
    expect(paymentOf("facture", parsed(address))).toEqual({ ok: true, payment: { paysBy: "facture", ...address } });
    expect(paymentOf("au-choix", parsed(address))).toEqual({ ok: false, errors: { paysBy: [bookingMessages.paysBy] } });
    expect(paymentOf("au-choix", parsed({ paysBy: "sur-place", ...address }))).toEqual({
      ok: true,
      payment: { paysBy: "sur-place", postalStreet: null, postalCode: null, postalLocality: null },
    });
    expect(paymentOf("au-choix", parsed({ paysBy: "facture", ...address }))).toEqual({
      ok: true,
      payment: { paysBy: "facture", ...address },
    });
  });
});
