/** Telephone numbers typed in the usual Swiss ways all come out as one E.164 number. */
import { describe, expect, it } from "vitest";
import { toE164 } from "./phone";

describe("toE164", () => {
  it("gives the same number for the spellings a Swiss number is typed in", () => {
    for (const typed of ["079 123 45 67", "+41791234567", "+41 79 123 45 67", "0041 79 123 45 67", "(079) 123-45-67"])
      expect(toE164(typed)).toBe("+41791234567");
  });
  it("keeps a foreign country code", () => {
    expect(toE164("+33 6 12 34 56 78")).toBe("+33612345678");
  });
  it("gives null for what is not a telephone number", () => {
    for (const typed of ["", "abc", "12", "079 123 45 67 89 01 23"]) expect(toE164(typed)).toBeNull();
  });
});
