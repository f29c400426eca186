/**
 * How paper writes amounts (issue 31, item 4): « CHF 1'250.00 », an
 * apostrophe between thousands, never a comma, always the centimes; the
 * site's pages keep « CHF 1’250.– » (app/utils/format.ts).
 */
import { describe, expect, it } from "vitest";
import { formatChf } from "~/utils/format";
import { paperChf } from "./layout.server";

describe("paperChf", () => {
  it("writes francs and centimes the Swiss way, with an apostrophe between thousands", () => {
    expect(paperChf(125000)).toBe("CHF 1'250.00");
    expect(paperChf(5500)).toBe("CHF 55.00");
    expect(paperChf(70)).toBe("CHF 0.70");
    expect(paperChf(0)).toBe("CHF 0.00");
    expect(paperChf(123456789)).toBe("CHF 1'234'567.89");
    expect(paperChf(100000)).not.toContain(",");
    // The web pages keep their own style.
    expect(formatChf(1250)).toBe("CHF 1’250.–");
  });

  it("refuses what is not a whole, positive number of centimes", () => {
    expect(() => paperChf(-100)).toThrow(RangeError);
    expect(() => paperChf(12.5)).toThrow(RangeError);
  });
});
