/** The owner's password rule (issue 24: weak passwords that passed before are refused, in French). */
import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password-policy.server";

describe("passwordProblem", () => {
  it("refuses guessable passwords of 12 characters or more, saying why in French", () => {
    for (const weak of ["motdepasse123", "Lausanne2026", "aaaaaaaaaaaaaa", "password1234", "azertyuiop12"]) {
      expect(passwordProblem(weak, "owner@example.ch"), weak).toMatch(/trop facile à deviner/);
    }
  });

  it("refuses a short password and the e-mail itself", () => {
    expect(passwordProblem("Court-1", "owner@example.ch")).toMatch(/au moins 12 caractères/);
    expect(passwordProblem("proprietaire.du.site@example.ch", "Proprietaire.du.site@example.ch")).toMatch(
      /adresse e-mail/,
    );
  });

  it("accepts a long passphrase", () => {
    expect(passwordProblem("Correct-Horse-Battery-9", "owner@example.ch")).toBeNull();
    expect(passwordProblem("soleil couchant sur le Léman", "owner@example.ch")).toBeNull();
  });
});
