import { describe, expect, it } from "vitest";
import { outboxIdOfMessageId, outboxMessageId } from "./provider-events.server";

describe("the Message-ID of an outbox mail", () => {
  it("names its row on the sender's domain, and is read back with or without angle brackets", () => {
    const id = outboxMessageId(42, "exemple.ch");
    expect(id).toMatch(/^<o42\.[0-9a-f-]{36}@exemple\.ch>$/);
    expect(outboxMessageId(42, "exemple.ch")).not.toBe(id);
    expect(outboxIdOfMessageId(id)).toBe(42);
    expect(outboxIdOfMessageId(id.slice(1, -1))).toBe(42);
  });

  it.each(["<20261127.abc@mailgun.org>", "o42@exemple.ch", "", "<o42.not-a-uuid@exemple.ch>"])(
    "names no row for another mail's: %j",
    (messageId) => {
      expect(outboxIdOfMessageId(messageId)).toBeNull();
    },
  );
});
