/**
 * The owner's sign-in, made by Better Auth (email and password, then a
 * second factor: TOTP, RFC 6238, 6 digits every 30 s, or one of ten
 * single-use recovery codes), on the site's own database
 * (`desk_user`, `desk_session`, `desk_account`, `desk_verification`,
 * `desk_two_factor` in `app/db/schema.ts`).
 *
 * Better Auth's HTTP handler is not mounted: the desk's route actions call
 * `auth.api.*` on the server and pass its cookies on, so the only doors are
 * the site's own pages (with their guards). There is no sign-up:
 * `npm run owner:add` makes accounts (`app/desk/owners.server.ts`).
 *
 * Session: stored in the database (so several server processes share it),
 * 8 hours, extended when used after an hour; the cookie is HttpOnly,
 * SameSite=Lax, and over HTTPS Secure with the `__Host-` prefix (bound to
 * the site's host, path `/`). Telemetry is off (nothing leaves the server).
 *
 * Imported from `better-auth/minimal` (the documented entry for an adapter
 * such as Drizzle's, without Kysely) and the one plugin's own path: half
 * the import time of `better-auth` and `better-auth/plugins` (0.21 s of CPU
 * instead of 0.41 s at each start).
 */
import { randomBytes, randomInt } from "node:crypto";
import { betterAuth } from "better-auth/minimal";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins/two-factor";
import { eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { deskAccount, deskSession, deskTwoFactor, deskUser, deskVerification, siteSecrets } from "~/db/schema";
import { identity } from "~/content/identity";

/** How long a session lasts without being used, in seconds (8 hours). */
export const SESSION_SECONDS = 8 * 60 * 60;

/** Recovery codes made for an account (each usable once). */
export const RECOVERY_CODE_COUNT = 10;

/**
 * The letters a recovery code is made of: lowercase letters and digits
 * without those read one for another on paper (0/o, 1/l/i), 31 of them.
 */
export const RECOVERY_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

/**
 * `RECOVERY_CODE_COUNT` random codes of ten letters of
 * `RECOVERY_CODE_ALPHABET` in two groups (`k7m2q-x9wbd`, about 49 bits each).
 */
export function recoveryCodes(): string[] {
  const letter = () => RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
  const group = () => Array.from({ length: 5 }, letter).join("");
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${group()}-${group()}`);
}

/** Digits and period of the TOTP codes (RFC 6238 defaults, what every authenticator app shows). */
export const TOTP = { digits: 6, period: 30 } as const;

/** The cookie names' prefix: `__Host-` over HTTPS (RFC 6265bis section 4.1.3.2). */
export function cookiePrefix(siteUrl: string): string {
  return siteUrl.startsWith("https://") ? "__Host-bureau" : "bureau";
}

/** A `Cookie` header's pair whose name is one of the desk's (`bureau.…` or `__Host-bureau.…`, see `cookiePrefix`). */
const DESK_COOKIE = /(?:^|;)\s*(?:__Host-)?bureau\./;

/** Whether a `Cookie` header carries any of the desk's cookies (its session, its sign-in steps). */
export function isDeskCookie(header: string): boolean {
  return DESK_COOKIE.test(header);
}

/** The issuer an authenticator app shows next to the code. */
const ISSUER = `${identity.brand.line1} ${identity.brand.line2}`.trim();

/** Removes e-mail addresses from a library's log message (a typed e-mail is a visitor's data). */
const redact = (message: string) => message.replace(/[^\s@<>"']+@[^\s@<>"']+/g, "[e-mail]");

/**
 * Makes the site's Better Auth instance.
 * @param options.db the open database; `siteUrl` the public origin (SITE_URL);
 *   `secret` at least 32 characters (signs cookies, encrypts TOTP secrets).
 */
export function createDeskAuth({
  db,
  siteUrl,
  secret,
  logger,
}: {
  db: Database;
  siteUrl: string;
  secret: string;
  logger?: Logger;
}) {
  const secure = siteUrl.startsWith("https://");
  return betterAuth({
    appName: ISSUER,
    baseURL: siteUrl,
    basePath: "/admin/auth",
    secret,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: deskUser,
        session: deskSession,
        account: deskAccount,
        verification: deskVerification,
        twoFactor: deskTwoFactor,
      },
    }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 12, maxPasswordLength: 256 },
    session: { expiresIn: SESSION_SECONDS, updateAge: 60 * 60 },
    // The site's own limits, in the database (app/guards, server/rate-limit.ts).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    trustedOrigins: [siteUrl],
    plugins: [
      twoFactor({
        issuer: ISSUER,
        skipVerificationOnEnable: true,
        totpOptions: TOTP,
        backupCodeOptions: { customBackupCodesGenerate: recoveryCodes },
      }),
    ],
    advanced: {
      cookiePrefix: cookiePrefix(siteUrl),
      useSecureCookies: false,
      defaultCookieAttributes: { secure, sameSite: "lax", httpOnly: true, path: "/" },
    },
    logger: {
      level: "warn",
      log: (level, message) => {
        const line = `better-auth: ${redact(String(message))}`;
        if (level === "error") logger?.error(line);
        else logger?.warn(line);
      },
    },
  });
}

/** The site's Better Auth instance. */
export type DeskAuth = ReturnType<typeof createDeskAuth>;

/**
 * The auth secret: AUTH_SECRET when set, otherwise one generated at the
 * first start and kept in the database (`site_secrets`), so that every
 * server process on one database uses the same.
 */
export async function resolveAuthSecret(db: Database, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db
    .insert(siteSecrets)
    .values({ name: "auth", value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select({ value: siteSecrets.value }).from(siteSecrets).where(eq(siteSecrets.name, "auth"));
  return row!.value;
}
