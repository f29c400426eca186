/**
 * `POST /csp-report` on the production server: what a browser sends is
 * answered 204 and logged, one `warn` line a violation; bad bodies are
 * refused without a 5xx; the policy and `Reporting-Endpoints` point there.
 */
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../server/main";
import { startTestServer } from "../support/harness";

describe("CSP violation reports", () => {
  const lines: Array<Record<string, unknown>> = [];
  let site: RunningServer & { url: string };
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        callback();
      },
    });
    site = await startTestServer({}, pino({ level: "warn" }, sink));
  });
  afterAll(() => site?.close());

  const violations = () => lines.filter((line) => line.msg === "csp: the browser blocked something");
  const post = (body: string, type: string) =>
    fetch(`${site.url}/csp-report`, { method: "POST", headers: { "Content-Type": type }, body });

  it("names the endpoint in the policy (report-uri, report-to) and in Reporting-Endpoints", async () => {
    const response = await fetch(`${site.url}/`);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy.split(";")).toEqual(expect.arrayContaining(["report-uri /csp-report", "report-to csp"]));
    expect(response.headers.get("reporting-endpoints")).toBe('csp="/csp-report"');
  });

  it("logs a CSP Level 2 report as one warn line, without the page's query string", async () => {
    const response = await post(
      JSON.stringify({
        "csp-report": {
          "document-uri": `${site.url}/contact?email=marie@example.ch`,
          "effective-directive": "frame-src",
          "blocked-uri": "https://maps.example/embed?q=1",
        },
      }),
      "application/csp-report",
    );
    expect(response.status).toBe(204);
    expect(violations().at(-1)).toMatchObject({
      level: 40,
      csp: { page: "/contact", directive: "frame-src", blocked: "https://maps.example/embed" },
    });
    expect(JSON.stringify(lines)).not.toContain("marie@example.ch");
  });

  it("logs each violation of a Reporting API batch", async () => {
    const before = violations().length;
    const report = (page: string) => ({
      type: "csp-violation",
      url: `${site.url}${page}`,
      body: { documentURL: `${site.url}${page}`, effectiveDirective: "script-src-elem", blockedURL: "inline" },
    });
    const response = await post(JSON.stringify([report("/"), report("/blog")]), "application/reports+json");
    expect(response.status).toBe(204);
    expect(
      violations()
        .slice(before)
        .map((line) => (line.csp as { page: string }).page),
    ).toEqual(["/", "/blog"]);
  });

  it("refuses a body that is not JSON (400) or over 16 KB (413), logs no violation, and keeps serving", async () => {
    const before = violations().length;
    expect((await post("{not json", "application/csp-report")).status).toBe(400);
    const long = JSON.stringify({ "csp-report": { "document-uri": "x".repeat(20_000) } });
    expect((await post(long, "application/csp-report")).status).toBe(413);
    expect(violations()).toHaveLength(before);
    expect((await fetch(`${site.url}/healthz`)).status).toBe(200);
  });

  it("answers 429 past 30 reports in 10 minutes from one address", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 32; index++) statuses.push((await post("[]", "application/reports+json")).status);
    expect(statuses).toContain(204);
    expect(statuses.at(-1)).toBe(429);
  });
});
