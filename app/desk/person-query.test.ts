/** The desk's person form, read: a normalised key, or what is wrong in French. */
import { describe, expect, it } from "vitest";
import { personKeyOf, personSearch } from "./person-query";

describe("personKeyOf", () => {
  const query = (fields: Record<string, string>) => personKeyOf(new URLSearchParams(fields));
  it("lower-cases the e-mail and reads the telephone as a Swiss number", () => {
    expect(query({ email: "  Marie.Dupont@Example.CH ", telephone: "079 123 45 67" }).person).toEqual({
      email: "marie.dupont@example.ch",
      phoneE164: "+41791234567",
    });
    expect(query({ telephone: "+41 79 123 45 67" }).person).toEqual({ email: null, phoneE164: "+41791234567" });
  });
  it("names what is wrong, in French, and searches nothing", () => {
    const wrong = query({ email: "marie", telephone: "abc" });
    expect(wrong.person).toBeNull();
    expect(wrong.errors.email).toMatch(/adresse e-mail n’est pas complète/);
    expect(wrong.errors.telephone).toMatch(/numéro de téléphone n’est pas lisible/);
  });
  it("searches nothing without a field, and says nothing is wrong", () => {
    expect(query({})).toMatchObject({ person: null, errors: {} });
  });
  it("gives back what was typed as a query string", () => {
    expect(personSearch(query({ email: "a+b@example.ch", telephone: "079 123 45 67" }))).toBe(
      "email=a%2Bb%40example.ch&telephone=079+123+45+67",
    );
  });
});
