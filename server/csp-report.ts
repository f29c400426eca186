/**
 * `POST /csp-report`: where browsers report what the Content-Security-Policy
 * blocked (`server/security.ts` names it in `report-uri` and, through the
 * `Reporting-Endpoints` header, in `report-to`). Each violation becomes one
 * `warn` line in the server's log, so that the owner learns that, say, a
 * newly added embed is blocked on visitors' screens:
 *
 *   {"level":40,"csp":{"page":"/blog/mon-article","directive":"frame-src",
 *    "blocked":"https://maps.example","source":"https://site.ch/assets/app.js:1"},
 *    "msg":"csp: the browser blocked something"}
 *
 * Two formats arrive (sources: CSP Level 3, section 5.3 "Report a violation"
 * and the obsolete `application/csp-report` body of CSP Level 2,
 * https://www.w3.org/TR/CSP3/#deprecated-serialize-violation; Reporting API,
 * https://www.w3.org/TR/reporting-1/#media-type-registration):
 * - `application/csp-report`: `{"csp-report": {"document-uri", "effective-directive"
 *   or "violated-directive", "blocked-uri", "source-file", "line-number", …}}`;
 * - `application/reports+json`: `[{"type": "csp-violation", "url", "body":
 *   {"documentURL", "effectiveDirective", "blockedURL", "sourceFile", "lineNumber", …}}, …]`.
 *
 * Only paths and origins are logged: query strings and fragments, which may
 * carry personal data, are dropped. Answers 204 to anything it could read
 * (also to a report with nothing usable in it), 400 to a body that is not
 * JSON, 413 over 16 KB, 429 past 30 requests in 10 minutes from one address
 * (a flood would drown the log); never 5xx.
 */
import express from "express";
import { rateLimit } from "express-rate-limit";
import type { Logger } from "pino";
import { z } from "zod";

/** The path browsers post their reports to. */
export const CSP_REPORT_PATH = "/csp-report";

/** The endpoint's name in `Reporting-Endpoints` and the policy's `report-to`. */
export const CSP_REPORT_GROUP = "csp";

const BODY_LIMIT = "16kb";
const MAX_VIOLATIONS_PER_REQUEST = 20;

/** One violation as logged. */
export type CspViolation = { page: string; directive: string; blocked: string; source?: string };

const text = z.string().max(2048).optional().catch(undefined);
const line = z.number().int().nonnegative().optional().catch(undefined);

const legacyReport = z.object({
  "csp-report": z.object({
    "document-uri": text,
    "effective-directive": text,
    "violated-directive": text,
    "blocked-uri": text,
    "source-file": text,
    "line-number": line,
  }),
});

const reportingApiReport = z.object({
  type: z.literal("csp-violation"),
  body: z.object({
    documentURL: text,
    effectiveDirective: text,
    blockedURL: text,
    sourceFile: text,
    lineNumber: line,
  }),
});

/**
 * An address without its query and fragment: the origin and path of a URL,
 * a keyword as it is ("inline", "eval"), "" when missing.
 */
export function withoutQuery(address: string | undefined): string {
  if (!address) return "";
  try {
    const url = new URL(address);
    return url.protocol === "data:" || url.protocol === "blob:" ? url.protocol : `${url.origin}${url.pathname}`;
  } catch {
    return address.split(/[?#]/)[0]!.slice(0, 200);
  }
}

/** The path of a page's address ("/blog/mon-article"), "" when missing. */
function pagePath(address: string | undefined): string {
  if (!address) return "";
  try {
    return new URL(address).pathname;
  } catch {
    return "";
  }
}

function violation(fields: {
  page?: string;
  directive?: string;
  blocked?: string;
  sourceFile?: string;
  lineNumber?: number;
}): CspViolation {
  const source = withoutQuery(fields.sourceFile);
  return {
    page: pagePath(fields.page),
    // Older browsers send the whole directive ("script-src 'self' …"): its name is enough.
    directive: (fields.directive ?? "").split(" ")[0]!,
    blocked: withoutQuery(fields.blocked),
    ...(source ? { source: fields.lineNumber ? `${source}:${fields.lineNumber}` : source } : {}),
  };
}

/**
 * The violations in a report body of either format (see above); an empty
 * list when there is none. At most 20 from one body.
 * @param body the parsed JSON body, of any shape
 */
export function readViolations(body: unknown): CspViolation[] {
  const legacy = legacyReport.safeParse(body);
  if (legacy.success) {
    const report = legacy.data["csp-report"];
    return [
      violation({
        page: report["document-uri"],
        directive: report["effective-directive"] ?? report["violated-directive"],
        blocked: report["blocked-uri"],
        sourceFile: report["source-file"],
        lineNumber: report["line-number"],
      }),
    ];
  }
  if (!Array.isArray(body)) return [];
  return body.slice(0, MAX_VIOLATIONS_PER_REQUEST).flatMap((item) => {
    const parsed = reportingApiReport.safeParse(item);
    if (!parsed.success) return [];
    const report = parsed.data.body;
    return [
      violation({
        page: report.documentURL,
        directive: report.effectiveDirective,
        blocked: report.blockedURL,
        sourceFile: report.sourceFile,
        lineNumber: report.lineNumber,
      }),
    ];
  });
}

/**
 * The handlers of `POST /csp-report`, to mount on that path (see above).
 * @param logger where each violation is written, at `warn`
 */
export function cspReportHandlers(logger: Logger): (express.RequestHandler | express.ErrorRequestHandler)[] {
  return [
    rateLimit({ windowMs: 10 * 60_000, limit: 30, standardHeaders: "draft-8", legacyHeaders: false }),
    express.json({
      type: ["application/csp-report", "application/reports+json", "application/json"],
      limit: BODY_LIMIT,
    }),
    ((req, res) => {
      for (const csp of readViolations(req.body)) logger.warn({ csp }, "csp: the browser blocked something");
      res.status(204).end();
    }) satisfies express.RequestHandler,
    // A body that is not JSON (400) or too long (413): answered without the HTML error page.
    ((error, _req, res, _next) => {
      const { status = 400 } = error as { status?: number };
      res.status(status >= 400 && status < 500 ? status : 400).end();
    }) satisfies express.ErrorRequestHandler,
  ];
}
