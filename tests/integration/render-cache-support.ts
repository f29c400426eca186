/**
 * What the render-cache tests share: a raw GET (bytes as sent), a page
 * proved to come from the cache, and a wait until a page shows a session's
 * places.
 */
import http from "node:http";
import { expect } from "vitest";
import { placesShown, waitFor } from "../support/harness";

/** A GET's status, headers and body bytes exactly as sent (`fetch` would decompress), on a connection of its own. */
export function rawRequest(
  baseUrl: string,
  pathname: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, method, path: pathname, agent: false, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

/**
 * GETs `pathname` until two answers in a row carry one ETag (30 s at most):
 * the page is kept. A change announced meanwhile (the test's own write,
 * heard a moment later) may drop the page once. @returns the body.
 */
export async function expectCached(baseUrl: string, pathname: string): Promise<string> {
  let previous: string | null = null;
  let body = "";
  await waitFor(
    async () => {
      const answer = await fetch(`${baseUrl}${pathname}`);
      expect(answer.status, pathname).toBe(200);
      body = await answer.text();
      const etag = answer.headers.get("etag");
      expect(etag, `${pathname} has an ETag`).toMatch(/^W\/"/);
      const kept = etag === previous && answer.headers.get("cache-control")!.includes("public");
      previous = etag;
      return kept;
    },
    30_000,
    `${pathname} answered twice from the cache`,
  );
  return body;
}

/**
 * Polls `pages` of `baseUrl` every 50 ms until each shows `places` for
 * `sessionId` (30 s at most: a busy machine). A kept page has no expiry
 * here (no session of these tests starts), so only an announced change can
 * make it show the new count; how soon is a figure of
 * `npm run bench:invalidation`, not of this test. @throws when they do not.
 */
export async function untilShown(baseUrl: string, pages: string[], sessionId: number, places: string) {
  await waitFor(
    async () => {
      for (const page of pages) {
        const html = await fetch(`${baseUrl}${page}`).then((answer) => answer.text());
        if (placesShown(html, sessionId) !== places) return false;
      }
      return true;
    },
    30_000,
    `"${places}" on ${pages.join(" and ")} of ${baseUrl}`,
  );
}

/** The `'nonce-…'` sources of a Content-Security-Policy. */
export const noncesOf = (policy: string | null) => policy?.match(/'nonce-[^']+'/g) ?? [];
