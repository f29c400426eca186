/** Reading CSP violation reports of both formats (server/csp-report.ts). */
import { describe, expect, it } from "vitest";
import { readViolations, withoutQuery } from "./csp-report";

describe("readViolations", () => {
  it("reads a CSP Level 2 report (application/csp-report), keeping paths and origins only", () => {
    const body = {
      "csp-report": {
        "document-uri": "https://site.ch/blog/mon-article?email=marie@example.ch#haut",
        "violated-directive": "frame-src https://www.youtube-nocookie.com",
        "effective-directive": "frame-src",
        "blocked-uri": "https://maps.example/embed?q=Lausanne",
        "source-file": "https://site.ch/assets/app-1a2b.js?v=1",
        "line-number": 12,
      },
    };
    expect(readViolations(body)).toEqual([
      {
        page: "/blog/mon-article",
        directive: "frame-src",
        blocked: "https://maps.example/embed",
        source: "https://site.ch/assets/app-1a2b.js:12",
      },
    ]);
  });

  it("reads every violation of a Reporting API batch (application/reports+json) and skips other report types", () => {
    const body = [
      {
        type: "csp-violation",
        url: "https://site.ch/",
        body: { documentURL: "https://site.ch/", effectiveDirective: "script-src-elem", blockedURL: "inline" },
      },
      { type: "deprecation", url: "https://site.ch/", body: { id: "x" } },
      {
        type: "csp-violation",
        url: "https://site.ch/contact",
        body: {
          documentURL: "https://site.ch/contact",
          effectiveDirective: "img-src",
          blockedURL: "data:image/png;base64,AAA",
        },
      },
    ];
    expect(readViolations(body)).toEqual([
      { page: "/", directive: "script-src-elem", blocked: "inline" },
      { page: "/contact", directive: "img-src", blocked: "data:" },
    ]);
  });

  it("takes the directive's name from an old browser's whole directive", () => {
    const [violation] = readViolations({
      "csp-report": { "document-uri": "https://site.ch/", "violated-directive": "script-src 'self' 'sha256-abc'" },
    });
    expect(violation?.directive).toBe("script-src");
  });

  it.each([null, 42, "text", {}, { "csp-report": "x" }, [{ type: "csp-violation" }], [1, 2]])(
    "finds nothing in %j",
    (body) => {
      expect(readViolations(body)).toEqual([]);
    },
  );

  it("keeps at most 20 violations from one body", () => {
    const one = { type: "csp-violation", body: { documentURL: "https://site.ch/", effectiveDirective: "img-src" } };
    expect(readViolations(Array.from({ length: 50 }, () => one))).toHaveLength(20);
  });
});

describe("withoutQuery", () => {
  it("drops query and fragment, keeps keywords and schemes of inline data", () => {
    expect(withoutQuery("https://a.example/x?y=1#z")).toBe("https://a.example/x");
    expect(withoutQuery("eval")).toBe("eval");
    expect(withoutQuery("blob:https://site.ch/123")).toBe("blob:");
    expect(withoutQuery(undefined)).toBe("");
  });
});
