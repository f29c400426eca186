/**
 * `namedIn`: who an outbox row names (decision 019), found in the mail as
 * rendered, so that a template that starts naming someone is covered
 * without touching its caller.
 */
import { describe, expect, it } from "vitest";
import { namedIn } from "./enqueue.server";

const jeanne = { name: "Jeanne  Favre", email: null, phone: "021 311 22 33" };
const pierre = { name: "Pierre Rochat", email: "Pierre.Rochat@Example.ch", phone: "079 444 55 66" };

describe("namedIn", () => {
  it("keeps the people whose name, e-mail or telephone the mail holds, normalised", () => {
    expect(
      namedIn({
        recipient: null,
        subject: "Nouvelle inscription",
        text: "Participant(e) : Jeanne Favre\nInscrit(e) par : 079 444 55 66",
        people: [jeanne, pierre],
      }),
    ).toEqual([
      { name: "Jeanne Favre", phone: "+41213112233" },
      { name: "Pierre Rochat", email: "pierre.rochat@example.ch", phone: "+41794445566" },
    ]);
  });
  it("leaves out whom the mail does not name, and adds its recipient", () => {
    expect(
      namedIn({
        recipient: "PIERRE.rochat@example.ch",
        subject: "Inscription confirmée",
        text: "L’inscription de Jeanne Favre est confirmée.",
        people: [jeanne, pierre],
      }),
    ).toEqual([
      { name: "Jeanne Favre", phone: "+41213112233" },
      { name: "Pierre Rochat", email: "pierre.rochat@example.ch", phone: "+41794445566" },
    ]);
    expect(namedIn({ recipient: "lecteur@example.ch", subject: "Lettre", text: "Bonjour", people: [jeanne] })).toEqual([
      { email: "lecteur@example.ch" },
    ]);
  });
});
