import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { requestContext } from "~/context.server";
import { BodyTooLargeError, readFormData } from "./body.server";
import { guardPublicAction, isHoneypotFilled } from "./public-action.server";

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
};

describe("isHoneypotFilled", () => {
  it("is spam when the field is filled, in any copy, or sent more than once", () => {
    expect(isHoneypotFilled(form([["website", ""]]), "website")).toBe(false);
    expect(isHoneypotFilled(form([]), "website")).toBe(false);
    expect(isHoneypotFilled(form([["website", "x"]]), "website")).toBe(true);
    expect(
      isHoneypotFilled(
        form([
          ["website", ""],
          ["website", "x"],
        ]),
        "website",
      ),
    ).toBe(true);
    expect(
      isHoneypotFilled(
        form([
          ["website", ""],
          ["website", ""],
        ]),
        "website",
      ),
    ).toBe(true);
  });
});

/** A request whose body arrives in `chunks` of text, without a declared length. */
function streamed(chunks: string[], method = "POST") {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  return new Request("http://localhost/contact", {
    method,
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    duplex: "half",
  } as RequestInit);
}

describe("readFormData", () => {
  it("parses a form within the limit", async () => {
    const data = await readFormData(streamed(["firstName=Marie&", "lastName=Dupont"]), 100);
    expect(data.get("firstName")).toBe("Marie");
    expect(data.get("lastName")).toBe("Dupont");
  });

  it("refuses a body past the limit while reading it, and one whose declared length is too large", async () => {
    await expect(readFormData(streamed(["a".repeat(60), "b".repeat(60)]), 100)).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    const declared = new Request("http://localhost/contact", {
      method: "POST",
      body: "x",
      headers: { "Content-Length": "1000000" },
    });
    await expect(readFormData(declared, 100)).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});

describe("guardPublicAction", () => {
  const options = { name: "contact", bodyLimitBytes: 100, honeypotField: "website" };
  /** A request's context whose rate limit never refuses. */
  const unlimited = requestContext({
    logger: pino({ level: "silent" }),
    clientAddress: "203.0.113.9",
    rateLimit: { consume: async () => ({ limited: false }), reward: async () => {} },
  });

  it("refuses any method but POST with 405 and Allow", async () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const thrown = await guardPublicAction(streamed(["a=b"], method), unlimited, options).catch((error) => error);
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(405);
      expect((thrown as Response).headers.get("Allow")).toBe("GET, HEAD, POST");
    }
  });

  it("counts each request against the limit of its action and address", async () => {
    const hits: string[] = [];
    const context = requestContext({
      logger: pino({ level: "silent" }),
      clientAddress: "203.0.113.9",
      rateLimit: {
        consume: async (action: string, { address }: { address?: string }) => {
          hits.push(`${action} ${address}`);
          return { limited: hits.length > 1 };
        },
        reward: async () => {},
      },
    });
    expect((await guardPublicAction(streamed(["website="]), context, options)).outcome).toBe("accepted");
    expect((await guardPublicAction(streamed(["website="]), context, options)).outcome).toBe("rate-limited");
    expect(hits).toEqual(["contact 203.0.113.9", "contact 203.0.113.9"]);
  });

  it("says too-large and spam", async () => {
    expect((await guardPublicAction(streamed(["a".repeat(200)]), unlimited, options)).outcome).toBe("too-large");
    expect((await guardPublicAction(streamed(["website=&website=x"]), unlimited, options)).outcome).toBe("spam");
  });
});
