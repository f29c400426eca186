/** The account's checks against SIX's sample IBAN and QR-IBAN. */
import { describe, expect, it } from "vitest";
import { isValidSwissIban, normalizeIban } from "./iban";

describe("a QR-bill's account", () => {
  it("accepts the sample IBAN and QR-IBAN, refuses a wrong check digit and a foreign IBAN", () => {
    expect(isValidSwissIban(normalizeIban("ch56 0483 5012 3456 7800 9"))).toBe(true);
    expect(isValidSwissIban("CH4431999123000889012")).toBe(true);
    expect(isValidSwissIban("CH4431999123000889013")).toBe(false);
    expect(isValidSwissIban("DE89370400440532013000")).toBe(false);
    expect(isValidSwissIban("CH44319991230008890")).toBe(false);
  });
});
