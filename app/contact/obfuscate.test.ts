import { describe, expect, it } from "vitest";
import { decodeContact, encodeContact } from "./obfuscate";

describe("contact encoding", () => {
  const channels = { phone: "+41211234567", email: "élise@exemple.ch" };

  it("round-trips any value, accents included", () => {
    expect(decodeContact(encodeContact(channels))).toEqual(channels);
  });

  it("leaves no address or number readable in the encoded text", () => {
    const encoded = encodeContact(channels);
    expect(encoded).not.toContain("41211234567");
    expect(encoded).not.toContain("exemple");
    expect(encoded).not.toContain("@");
  });

  it("rejects text that was not encoded", () => {
    expect(() => decodeContact("not base64 !")).toThrow(SyntaxError);
  });
});
