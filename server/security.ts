/**
 * Security headers of every response (issue 5, decision 008).
 *
 * - `Content-Security-Policy`, enforced, with no `'unsafe-inline'` and no
 *   `'unsafe-eval'` for scripts. A page rendered on request allows its inline
 *   scripts by a per-request nonce (`res.locals.cspNonce`, which
 *   `app/entry.server.tsx` hands to React Router and React); a page of the
 *   render cache, served to many visitors, allows the SHA-256 hashes of its
 *   own inline scripts (`res.locals.cspScriptSources`, server/render-cache.ts).
 *   The policy is written as the headers go out, so that the handler that
 *   answers decides which (`on-headers`).
 * - Strict-Transport-Security (and `upgrade-insecure-requests`) only when the
 *   request came over HTTPS (`req.secure`, which honours `X-Forwarded-Proto`
 *   from a proxy on the loopback address).
 * - helmet's other headers: `X-Content-Type-Options: nosniff`,
 *   `Referrer-Policy: strict-origin-when-cross-origin` (with helmet's default
 *   `no-referrer`, Chromium sends `Origin: null` on form posts, which React
 *   Router's same-origin check for actions refuses), `X-Frame-Options: DENY`,
 *   `Cross-Origin-Opener-Policy: same-origin`, `Cross-Origin-Resource-Policy:
 *   same-origin`.
 * - `report-uri` and `report-to` (with its `Reporting-Endpoints` header):
 *   browsers post what the policy blocked to `/csp-report`, which logs it
 *   (`server/csp-report.ts`).
 * - `Permissions-Policy` closing the camera, microphone, geolocation and a
 *   few other powerful features nobody needs on this site.
 *
 * Sources: CSP Level 3 (W3C), https://www.w3.org/TR/CSP3/ (hash-source is
 * the base64 SHA-256 of the script element's text); Permissions Policy,
 * https://www.w3.org/TR/permissions-policy/.
 */
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler, Response } from "express";
import helmet from "helmet";
import onHeaders from "on-headers";
import { Parser } from "htmlparser2";
import { DEFERRED_MODULE_TYPE } from "../app/utils/deferred-hydration.server.ts";
import { CSP_REPORT_GROUP, CSP_REPORT_PATH } from "./csp-report.ts";

/** The only other host a page may show content from: YouTube's privacy-enhanced player, after a click. */
export const VIDEO_PLAYER_ORIGIN = "https://www.youtube-nocookie.com";

/** Value of the `Permissions-Policy` header: these features are closed to the site and to any frame. */
export const PERMISSIONS_POLICY = [
  "camera=()",
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "browsing-topics=()",
].join(", ");

declare module "express-serve-static-core" {
  interface Locals {
    /** Base64 nonce of this request's inline scripts (server-rendered pages). */
    cspNonce?: string;
    /** The `script-src` sources beside `'self'` for this response: a cached page's hashes (else the nonce is used). */
    cspScriptSources?: string;
  }
}

/** A fresh nonce: 128 random bits, base64 (CSP3 asks for at least 128 bits). */
export function createNonce(): string {
  return crypto.randomBytes(16).toString("base64");
}

/**
 * Script types a browser executes: classic (no type or a JavaScript MIME
 * type) and module, and the deferred bootstrap, which the starter runs as
 * a module with the same text (decision 009).
 */
function isExecutable(type: string | undefined): boolean {
  if (type === undefined) return true;
  const normalised = type.trim().toLowerCase();
  return (
    normalised === "" ||
    normalised === "module" ||
    normalised === DEFERRED_MODULE_TYPE ||
    /^(text|application)\/(x-)?(java|ecma)script$/.test(normalised)
  );
}

/**
 * The CSP hash sources (`'sha256-…'`) of every inline executable script in
 * an HTML document, in document order, without duplicates. Scripts with a
 * `src` and data blocks (JSON-LD, `type="application/json"`) are skipped:
 * browsers do not run them, so the policy need not allow them.
 * @param html the whole document as served (UTF-8 text)
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  let inScript = false;
  let text = "";
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name !== "script") return;
        inScript = !("src" in attributes) && isExecutable(attributes.type);
        text = "";
      },
      ontext(chunk) {
        if (inScript) text += chunk;
      },
      onclosetag(name) {
        if (name !== "script" || !inScript) return;
        hashes.add(`'sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}'`);
        inScript = false;
      },
    },
    // Script contents are raw text: no entity decoding, exactly the characters the browser hashes.
    { decodeEntities: false },
  );
  parser.write(html);
  parser.end();
  return [...hashes];
}

const scriptSources = (_req: IncomingMessage, res: ServerResponse) => {
  const locals = (res as Response).locals;
  // No nonce and no hash: only scripts from the site itself (a file, an asset, an error of Express).
  return locals.cspScriptSources || (locals.cspNonce ? `'nonce-${locals.cspNonce}'` : "'self'");
};

/** helmet's Content-Security-Policy middleware (over HTTPS: with `upgrade-insecure-requests`). */
const contentSecurityPolicy = (secure: boolean, development: boolean) =>
  helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", scriptSources],
      scriptSrcAttr: ["'none'"],
      // React sets style attributes (picture ratios, the tooltip's position), sonner injects its
      // stylesheet: inline styles cannot run code, so they stay allowed.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'"],
      connectSrc: development ? ["'self'", "ws:"] : ["'self'"],
      frameSrc: [VIDEO_PLAYER_ORIGIN],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      // Violations are logged (server/csp-report.ts): report-to where the browser has it, else report-uri.
      reportUri: [CSP_REPORT_PATH],
      reportTo: [CSP_REPORT_GROUP],
      ...(secure ? { upgradeInsecureRequests: [] } : {}),
    },
  });

/** helmet's other headers (over HTTPS: with Strict-Transport-Security). */
const policy = (secure: boolean) =>
  helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: secure ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xFrameOptions: { action: "deny" },
    // COEP would keep the YouTube player out; COOP and CORP stay at helmet's same-origin.
    crossOriginEmbedderPolicy: false,
  });

/** The headers every answer gets besides helmet's. */
const setOwnHeaders = (res: { setHeader(name: string, value: string): unknown }) => {
  res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
  res.setHeader("Reporting-Endpoints", `${CSP_REPORT_GROUP}="${CSP_REPORT_PATH}"`);
};

/**
 * The middleware chain that sets the security headers. Must run before
 * anything answers; the Content-Security-Policy is written when the answer's
 * headers go out, from `res.locals.cspScriptSources` if the handler set it
 * (a cached page's hashes), else the request's nonce.
 * @param development allows Vite's hot-reload web socket (`ws:`) in `connect-src`
 */
export function securityHeaders({ development = false }: { development?: boolean } = {}): RequestHandler[] {
  const overHttps = policy(true);
  const overHttp = policy(false);
  const cspOverHttps = contentSecurityPolicy(true, development);
  const cspOverHttp = contentSecurityPolicy(false, development);
  const noop = () => {};
  return [
    (req, res, next) => {
      res.locals.cspNonce = createNonce();
      // helmet's policy middleware only computes and sets the header: run as the headers are written.
      onHeaders(res, () => (req.secure ? cspOverHttps : cspOverHttp)(req, res, noop));
      next();
    },
    (req, res, next) => (req.secure ? overHttps : overHttp)(req, res, next),
    (_req, res, next) => {
      setOwnHeaders(res);
      next();
    },
  ];
}

/** The headers one answer would leave with: set, removed and read like a response's (for `securityHeaderList`). */
class HeaderRecorder {
  readonly headers = new Map<string, [string, string]>();
  readonly locals: Response["locals"];
  constructor(scriptSources: string) {
    this.locals = scriptSources ? { cspScriptSources: scriptSources } : {};
  }
  setHeader(name: string, value: string | number | readonly string[]) {
    this.headers.set(name.toLowerCase(), [name, String(value)]);
    return this;
  }
  getHeader(name: string) {
    return this.headers.get(name.toLowerCase())?.[1];
  }
  removeHeader(name: string) {
    this.headers.delete(name.toLowerCase());
  }
}

/**
 * The security headers `securityHeaders` gives an answer whose scripts are
 * allowed by `scriptSources` (a kept page's hashes; "" for an answer with
 * no script of its own: `'self'` only), over HTTPS (`secure`: with
 * Strict-Transport-Security) or not, as `[name, value]` pairs in the order
 * they are set: computed once per kept answer by the render cache's fast
 * path (server/render-cache-fast.ts), which sends them without running the
 * middleware. The same helmet policies make both.
 */
export function securityHeaderList(secure: boolean, scriptSources: string): [string, string][] {
  const req = { secure, headers: {}, method: "GET" } as unknown as IncomingMessage;
  const res = new HeaderRecorder(scriptSources);
  const noop = () => {};
  contentSecurityPolicy(secure, false)(req, res as never, noop);
  policy(secure)(req, res as never, noop);
  setOwnHeaders(res);
  return [...res.headers.values()];
}
