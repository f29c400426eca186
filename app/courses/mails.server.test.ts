import { describe, expect, it } from "vitest";
import { registrationCancelledMail, reminderMail, seatGivenMail } from "./mails.server";

const session = {
  startsAt: "2027-01-12T13:00:00.000Z",
  durationMinutes: 120,
  placeName: "Salle paroissiale",
  placeAddress: "Rue du Lac 1, 1800 Vevey",
  placeAccess: "",
  priceChf: 55,
};
const toRelative = {
  courseTitle: "Sécurité en ligne",
  session,
  reader: { name: "Luc Dupont", relative: true },
  attendeeName: "Odette Rochat",
  payment: { paysBy: "sur-place", postalStreet: null, postalCode: null, postalLocality: null },
} as const;

describe("the mails of a registration made by a relative", () => {
  it("write « d’Odette », not « de Odette », and « de Marie » before a consonant", () => {
    const texts = [
      registrationCancelledMail({ ...toRelative, by: "owner" }).text,
      reminderMail({ ...toRelative, manageUrl: null }).text,
      seatGivenMail({ ...toRelative, seats: 1, manageUrl: "https://example.ch/cours/inscription/x" }).text,
    ];
    for (const text of texts) {
      expect(text).toContain("d’Odette Rochat");
      expect(text).not.toContain("de Odette");
    }
    expect(reminderMail({ ...toRelative, attendeeName: "Marie Rochat", manageUrl: null }).text).toContain(
      "le cours de Marie Rochat",
    );
  });
});

describe("a cancellation from the waiting list", () => {
  it("does not say the place goes to someone else: the person held none", () => {
    const waiting = registrationCancelledMail({
      ...toRelative,
      reader: { name: "Odette Rochat", relative: false },
      by: "person",
      waiting: true,
    });
    expect(waiting.text).not.toContain("la place ira à une autre personne");
    expect(waiting.text).toContain("votre inscription sur la liste d’attente de ce cours est annulée");
    const confirmed = registrationCancelledMail({ ...toRelative, by: "person", waiting: false });
    expect(confirmed.text).toContain("la place ira à une autre personne");
  });
});
