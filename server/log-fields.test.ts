/** The request log keeps no token of a mail's link, however the path is spelt. */
import { describe, expect, it } from "vitest";
import { loggedPath } from "./log-fields";

describe("loggedPath", () => {
  it("replaces the token of every link from a mail", () => {
    expect(loggedPath("/cours/inscription/AbC-123_x")).toBe("/cours/inscription/[jeton]");
    expect(loggedPath("/cours/inscription/AbC-123_x/calendrier.ics")).toBe("/cours/inscription/[jeton]/calendrier.ics");
    expect(loggedPath("/newsletter/confirmer/tok.data?x=1")).toBe("/newsletter/confirmer/[jeton]");
    expect(loggedPath("/newsletter/desabonnement/tok")).toBe("/newsletter/desabonnement/[jeton]");
    expect(loggedPath("/cours/place/AbC-123_x?reponse=oui")).toBe("/cours/place/[jeton]");
    expect(loggedPath("/Cours/Place/SECRET/")).not.toContain("SECRET");
  });

  it("finds the token in other spellings of the path", () => {
    expect(loggedPath("/Cours/Inscription/SECRET")).not.toContain("SECRET");
    expect(loggedPath("/%63ours/inscription/SECRET")).not.toContain("SECRET");
    expect(loggedPath("/newsletter/confirmer/SECRET%")).not.toContain("SECRET");
  });

  it("keeps other paths, without their query", () => {
    expect(loggedPath("/cours/securite?seance=3")).toBe("/cours/securite");
    expect(loggedPath("/admin/demandes/12")).toBe("/admin/demandes/12");
  });
});
