/**
 * The references against the examples their standards publish: the QR
 * reference of SIX's Implementation Guidelines (annex: 21 00000 00003 13947
 * 14300 09017), ISO 11649's creditor reference (RF18 5390 0754 7034); and
 * SIX's sample QR-IBAN told from an ordinary IBAN.
 */
import { isQRIBAN } from "swissqrbill/utils";
import { describe, expect, it } from "vitest";
import { creditorReference, qrReference } from "./payment-rules";

describe("the Swiss Payment Standards' references", () => {
  it("make the published QR reference and creditor reference", () => {
    expect(qrReference("21000000000313947143000901")).toBe("210000000003139471430009017");
    expect(qrReference("7")).toMatch(/^0{25}7\d$/);
    expect(creditorReference("539007547034")).toBe("RF18539007547034");
    expect(creditorReference("a1")).toMatch(/^RF\d{2}A1$/);
    expect(() => qrReference("12a")).toThrow(RangeError);
    expect(() => creditorReference("x".repeat(22))).toThrow(RangeError);
  });

  it("tell the sample QR-IBAN from an ordinary IBAN", () => {
    expect(isQRIBAN("CH4431999123000889012")).toBe(true);
    expect(isQRIBAN("CH5604835012345678009")).toBe(false);
  });
});
