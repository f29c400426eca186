/**
 * Security headers and the Content-Security-Policy as served: on a page of
 * the render cache, a page rendered for one request, an asset and a 404; and
 * the policy does not break hydration, the contact dialog, the form's post
 * or the video player (no violation reported by Chromium).
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { CSP_REPORT_GROUP, CSP_REPORT_PATH } from "../../server/csp-report";
import { BROTLI_QUALITY } from "../../server/render-cache-bodies";
import { PERMISSIONS_POLICY, VIDEO_PLAYER_ORIGIN } from "../../server/security";
import { fillValidRequest, openDialogFromHeader, useOwnClientAddress } from "./contact-helpers";
import { waitForHydration } from "./helpers";

/** A page rendered for each request: the newsletter's confirmation link, with a token that is not valid. */
const LINK_PAGE = `/newsletter/confirmer/${"a".repeat(43)}`;

/** `Cache-Control` of a page kept in the render cache (server/render-cache.ts). */
const CACHED_PAGE = "public, max-age=0, must-revalidate, s-maxage=10, stale-while-revalidate=20";

/** The directives of a CSP header, by name. */
function directives(response: APIResponse): Map<string, string[]> {
  const header = response.headers()["content-security-policy"];
  expect(header, "Content-Security-Policy is sent").toBeTruthy();
  return new Map(
    header!
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** Checks every header the site promises on every response, whatever its kind. */
function expectBaseline(response: APIResponse) {
  const headers = response.headers();
  const csp = directives(response);
  const scripts = csp.get("script-src") ?? [];
  expect(scripts).toContain("'self'");
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(csp.get("object-src")).toEqual(["'none'"]);
  expect(csp.get("base-uri")).toEqual(["'self'"]);
  expect(csp.get("form-action")).toEqual(["'self'"]);
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  expect(csp.get("frame-src")).toEqual([VIDEO_PLAYER_ORIGIN]);
  // Violations reach the server's log (server/csp-report.ts).
  expect(csp.get("report-uri")).toEqual([CSP_REPORT_PATH]);
  expect(csp.get("report-to")).toEqual([CSP_REPORT_GROUP]);
  expect(headers["reporting-endpoints"]).toBe(`${CSP_REPORT_GROUP}="${CSP_REPORT_PATH}"`);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["cross-origin-opener-policy"]).toBe("same-origin");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["permissions-policy"]).toBe(PERMISSIONS_POLICY);
  for (const feature of ["camera=()", "microphone=()", "geolocation=()"])
    expect(headers["permissions-policy"]).toContain(feature);
  // Plain HTTP here: HSTS would be meaningless (and is ignored by browsers).
  expect(headers["strict-transport-security"]).toBeUndefined();
  expect(headers["x-powered-by"]).toBeUndefined();
  return { csp, scripts, headers };
}

/**
 * The inline scripts of a page and their attributes, as served; JSON data
 * blocks (JSON-LD, the deferred module preloads' list) are not run and left out.
 */
function inlineScripts(html: string) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !/\bsrc=/.test(attributes!) && !/type="application\/(ld\+)?json"/.test(attributes!))
    .map(([, attributes]) => attributes!);
}

test("a cached page allows its own inline scripts by hash, revalidates, and is sent as compressed once", async ({
  request,
}) => {
  const response = await request.get("/blog", { headers: { "Accept-Encoding": "gzip, deflate, br" } });
  expect(response.status()).toBe(200);
  const { scripts, headers } = expectBaseline(response);
  const hashes = scripts.filter((source) => source.startsWith("'sha256-"));
  expect(hashes.length, "one hash per distinct inline script").toBeGreaterThan(0);
  expect(scripts.some((source) => source.startsWith("'nonce-"))).toBe(false);
  expect(inlineScripts(await response.text()).length).toBeGreaterThanOrEqual(hashes.length);
  // Browsers ask each time; a CDN may keep it 10 s, and serve it stale 20 s more while it asks.
  expect(headers["cache-control"]).toBe(CACHED_PAGE);
  expect(headers["content-encoding"]).toBe("br");
  expect(headers["vary"]).toBe("Accept-Encoding");
  expect(headers["etag"]).toMatch(/^W\/"[^"]+"$/);
  // The page compressed once when kept (brotli at BROTLI_QUALITY, or gzip 9 for a browser without brotli),
  // sent as it is.
  const identity = await request.get("/blog", { headers: { "Accept-Encoding": "identity" } });
  expect(identity.headers()["content-encoding"]).toBeUndefined();
  const page = await identity.body();
  expect(Number(identity.headers()["content-length"])).toBe(page.length);
  const brotli = await request.get("/blog", { headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } });
  expect(brotli.headers()["content-encoding"]).toBe("br");
  expect(Number(brotli.headers()["content-length"])).toBe(
    zlib.brotliCompressSync(page, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }).length,
  );
  expect(brotli.headers()["content-type"]).toMatch(/^text\/html; charset=utf-8$/i);
  expect((await brotli.body()).equals(page)).toBe(true);
  const gzip = await request.get("/blog", { headers: { "Accept-Encoding": "gzip" } });
  expect(gzip.headers()["content-encoding"]).toBe("gzip");
  expect(Number(gzip.headers()["content-length"])).toBe(zlib.gzipSync(page, { level: 9 }).length);
  expect((await gzip.body()).equals(page)).toBe(true);
  expect(gzip.headers()["content-security-policy"]).toBe(brotli.headers()["content-security-policy"]);
  expect(gzip.headers()["etag"]).toBe(headers["etag"]);
  // A browser whose copy is current gets 304, without a body, with the same headers.
  const current = await request.get("/blog", {
    headers: { "Accept-Encoding": "gzip, deflate, br", "If-None-Match": headers["etag"]! },
  });
  expect(current.status()).toBe(304);
  expect((await current.body()).length).toBe(0);
  expect(current.headers()["etag"]).toBe(headers["etag"]);
  expect(current.headers()["cache-control"]).toBe(CACHED_PAGE);
  expectBaseline(current);
});

test("a page rendered for one request carries a fresh nonce on each of its inline scripts, and is not shared", async ({
  request,
}) => {
  // A mail's link page (a token in its address): never kept in the render cache.
  const first = await request.get(LINK_PAGE);
  const second = await request.get(LINK_PAGE);
  expect(first.status()).toBe(200);
  const nonces = [first, second].map((response) => {
    const { scripts, headers } = expectBaseline(response);
    expect(headers["cache-control"]).toBe("private, no-cache");
    const nonce = scripts.find((source) => source.startsWith("'nonce-"));
    expect(nonce, "script-src has a nonce").toBeTruthy();
    return nonce!.slice("'nonce-".length, -1);
  });
  expect(nonces[0]).not.toBe(nonces[1]);
  expect(nonces[0]!.length).toBeGreaterThanOrEqual(22); // 128 bits in base64
  const scripts = inlineScripts(await first.text());
  expect(scripts.length).toBeGreaterThan(0);
  for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonces[0]}"`);
});

test("a hashed asset is cached for a year, immutable, precompressed, with the same headers", async ({ request }) => {
  const html = await (await request.get("/")).text();
  const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
  expect(asset, "the home page references a hashed script").toBeTruthy();
  const response = await request.get(asset!, { headers: { "Accept-Encoding": "gzip" } });
  expect(response.status()).toBe(200);
  const { headers } = expectBaseline(response);
  expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(headers["content-encoding"]).toBe("gzip");

  // Brotli when the browser takes it: the file compressed at build time (quality 11), sent as it is.
  const brotli = await request.get(asset!, { headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } });
  expect(brotli.headers()["content-encoding"]).toBe("br");
  expect(brotli.headers()["vary"]).toBe("Accept-Encoding");
  expect(Number(brotli.headers()["content-length"])).toBe(
    fs.statSync(path.join("build", "client", `${asset}.br`)).size,
  );
  expect(brotli.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});

test("a 404 page and a missing asset carry the same headers", async ({ request }) => {
  const page = await request.get("/cette-page-n-existe-pas");
  expect(page.status()).toBe(404);
  expectBaseline(page);
  const asset = await request.get("/assets/introuvable-123.js");
  expect(asset.status()).toBe(404);
  expectBaseline(asset);
});

test("over HTTPS (a TLS proxy on this machine), HSTS is sent and insecure requests are upgraded", async ({
  request,
}) => {
  const response = await request.get("/", { headers: { "X-Forwarded-Proto": "https" } });
  expect(response.headers()["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  expect(directives(response).has("upgrade-insecure-requests")).toBe(true);
});

/** Records every CSP violation the page reports, from before its first script. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportViolation: (text: string) => void }).reportViolation(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return violations;
}

test("the policy breaks nothing: hydration, the dialog and its post, a page rendered for one request, the video", async ({
  page,
}) => {
  const violations = await watchViolations(page);
  await useOwnClientAddress(page);

  await page.goto("/");
  await waitForHydration(page);
  const { dialog } = await openDialogFromHeader(page);
  await fillValidRequest(dialog);
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await dialog.getByRole("button", { name: "Envoyer" }).click();
  expect((await answer).status()).toBe(200);
  await expect(page.getByRole("dialog", { name: "Félicitations !" })).toBeVisible();

  await page.goto("/contact");
  await waitForHydration(page);

  // Its scripts allowed by the request's nonce, not by hashes.
  await page.goto(LINK_PAGE);
  await waitForHydration(page);

  await page.goto("/blog/reconnaitre-email-frauduleux");
  await waitForHydration(page);
  await page.getByRole("link", { name: /Regarder la vidéo/ }).click();
  await expect(page.locator(`iframe[src^="${VIDEO_PLAYER_ORIGIN}/embed/"]`)).toHaveCount(1);
  // A client-side navigation fetches the next page's data (connect-src).
  await page.getByRole("link", { name: "Retour au blog" }).first().click();
  await expect(page).toHaveURL(/\/blog$/);

  expect(violations).toEqual([]);
});

test("a violation is reported by the browser to /csp-report, which takes it", async ({ page }) => {
  // Chromium sends its reports through the Reporting API (report-to), in batches, late; Firefox and
  // Safari post them at once to report-uri. Without report-to, Chromium posts at once too.
  await page.route("/blog", async (route) => {
    const response = await route.fetch();
    const headers = response.headers();
    headers["content-security-policy"] = headers["content-security-policy"]!.replace(/;\s*report-to [^;]+/, "");
    await route.fulfill({ response, headers });
  });
  await page.goto("/blog");
  const report = page.waitForRequest((request) => request.url().endsWith(CSP_REPORT_PATH));
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.injected = true";
    document.body.append(script);
  });
  const request = await report;
  expect(request.postDataJSON()["csp-report"]).toMatchObject({ "effective-directive": "script-src-elem" });
  expect((await request.response())?.status()).toBe(204);
  expect(await page.evaluate(() => "injected" in window)).toBe(false);
});
