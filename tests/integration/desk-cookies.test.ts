/**
 * The desk's cookies over HTTPS (issue 13: "cookie HttpOnly, SameSite=Lax,
 * Secure and __Host- prefixed over HTTPS"): a SITE_URL in https gives every
 * cookie of the sign-in the `__Host-` prefix, `Secure`, `Path=/`, no
 * `Domain`, `HttpOnly` and `SameSite=Lax`; the session cookie has no
 * lifetime (it ends with the browser). Over plain HTTP (development) they
 * are neither Secure nor prefixed, since browsers would drop them.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "../../app/db/client.server";
import { createDeskAuth, resolveAuthSecret } from "../../app/desk/auth.server";
import { createOwner, freshDataDir, type TestOwner } from "../support/harness";

let database: OpenDatabase;
let dataDir: string;
let owner: TestOwner;

beforeAll(async () => {
  dataDir = freshDataDir();
  database = await openDatabase({ dataDir });
  owner = await createOwner(database.db);
}, 60_000);

afterAll(async () => {
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The cookies Better Auth sets through both steps of a sign-in on `siteUrl`. */
async function signInCookies(siteUrl: string): Promise<string[]> {
  const auth = createDeskAuth({
    db: database.db,
    siteUrl,
    secret: await resolveAuthSecret(database.db, undefined),
  });
  const first = await auth.api.signInEmail({
    body: { email: owner.email, password: owner.password, rememberMe: false },
    headers: new Headers({ Origin: siteUrl }),
    asResponse: true,
  });
  const pending = first.headers.getSetCookie();
  const second = await auth.api.verifyBackupCode({
    body: { code: owner.recoveryCodes.pop()! },
    headers: new Headers({ Origin: siteUrl, Cookie: pending.map((cookie) => cookie.split(";")[0]).join("; ") }),
    asResponse: true,
  });
  expect(second.status).toBe(200);
  return [...pending, ...second.headers.getSetCookie()];
}

const attributes = (cookie: string) =>
  cookie
    .split(";")
    .slice(1)
    .map((part) => part.trim().toLowerCase());

describe("the desk's cookies", () => {
  it("over HTTPS: __Host- prefix, Secure, Path=/, no Domain, HttpOnly, SameSite=Lax", async () => {
    const cookies = await signInCookies("https://www.example.ch");
    expect(cookies.length).toBeGreaterThanOrEqual(3);
    for (const cookie of cookies) {
      expect(cookie, cookie).toMatch(/^__Host-bureau\./);
      const parts = attributes(cookie);
      expect(parts, cookie).toContain("secure");
      expect(parts, cookie).toContain("path=/");
      expect(parts, cookie).toContain("httponly");
      expect(parts, cookie).toContain("samesite=lax");
      expect(
        parts.some((part) => part.startsWith("domain=")),
        cookie,
      ).toBe(false);
    }
    // The first step clears any former session (Max-Age=0); the second sets the new one.
    const session = cookies.findLast((cookie) => /^__Host-bureau\.session_token=[^;]+/.test(cookie))!;
    expect(session).toBeDefined();
    expect(
      attributes(session).some((part) => part.startsWith("max-age=") || part.startsWith("expires=")),
      session,
    ).toBe(false);
  });

  it("over plain HTTP (development): neither Secure nor prefixed", async () => {
    const cookies = await signInCookies("http://localhost:3000");
    for (const cookie of cookies) {
      expect(cookie, cookie).toMatch(/^bureau\./);
      expect(attributes(cookie), cookie).not.toContain("secure");
    }
  });
});
