/**
 * The payment rules against the examples their standards publish: the QR
 * reference of SIX's Implementation Guidelines (annex: 21 00000 00003 13947
 * 14300 09017), ISO 11649's creditor reference (RF18 5390 0754 7034), and
 * SIX's sample IBAN and QR-IBAN.
 */
import { describe, expect, it } from "vitest";
import { creditorReference, isQrIban, isValidSwissIban, normalizeIban, qrReference } from "./payment-rules";

describe("the Swiss Payment Standards' rules", () => {
  it("make the published QR reference and creditor reference", () => {
    expect(qrReference("21000000000313947143000901")).toBe("210000000003139471430009017");
    expect(qrReference("7")).toMatch(/^0{25}7\d$/);
    expect(creditorReference("539007547034")).toBe("RF18539007547034");
    expect(() => qrReference("12a")).toThrow(RangeError);
    expect(() => creditorReference("x".repeat(22))).toThrow(RangeError);
  });

  it("accept the sample IBAN and QR-IBAN, refuse a wrong check digit and a foreign IBAN", () => {
    expect(isValidSwissIban(normalizeIban("ch56 0483 5012 3456 7800 9"))).toBe(true);
    expect(isValidSwissIban("CH4431999123000889012")).toBe(true);
    expect(isValidSwissIban("CH4431999123000889013")).toBe(false);
    expect(isValidSwissIban("DE89370400440532013000")).toBe(false);
    expect(isQrIban("CH4431999123000889012")).toBe(true);
    expect(isQrIban("CH5604835012345678009")).toBe(false);
  });
});
