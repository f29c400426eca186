/**
 * The two steps of the owner's sign-in, for the `/admin/connexion` action:
 *
 * 1. `checkPassword`: e-mail and password (Better Auth `signInEmail`). A
 *    right pair starts the second step (Better Auth's signed `two_factor`
 *    cookie, valid 10 minutes); a wrong one is answered the same way
 *    whether the e-mail exists or not.
 * 2. `checkSecondFactor`: a 6-digit TOTP code (`verifyTOTP`) or a recovery
 *    code (`verifyBackupCode`, each usable once). A TOTP code that already
 *    opened a session is refused (RFC 6238 section 5.2): the new session is
 *    deleted at once.
 *
 * Failed attempts are limited per account (the e-mail typed) and per
 * address: at most 5 per 15 minutes (`SIGN_IN_LIMITS`, counted in the
 * database by `context.rateLimit`, shared by every server process); Better
 * Auth adds its own: 5 codes per challenge, and a lock after 10 failed codes
 * in a row on an account. Every outcome is audited (`audit_log`).
 *
 * Each returns an outcome and the `Set-Cookie` values to pass on.
 */
import type { AppLoadContext } from "react-router";
import { and, eq, lt, sql } from "drizzle-orm";
import { deskSession, deskUsedTotp } from "~/db/schema";
import { audit } from "./audit.server";

const FIFTEEN_MINUTES = 15 * 60_000;

/**
 * The sign-in's limits (server/rate-limit.ts reads them): every sign-in
 * POST per address (a coarse guard against floods), and failed attempts per
 * account and per address (issue 13: at most 5 per 15 minutes).
 */
export const SIGN_IN_LIMITS = {
  "sign-in": { limit: 60, windowMs: FIFTEEN_MINUTES },
  "sign-in-failure": { limit: 5, windowMs: FIFTEEN_MINUTES },
} as const;

/** How long an accepted TOTP code stays refused: longer than its validity (3 steps of 30 s). */
const USED_CODE_SECONDS = 5 * 60;

export type SignInOutcome =
  /** The password is right: ask for the code. */
  | { outcome: "second-step"; cookies: string[] }
  /** The code is right: signed in. */
  | { outcome: "signed-in"; cookies: string[] }
  /** Wrong e-mail or password, or wrong code. */
  | { outcome: "refused"; cookies: string[] }
  /** A TOTP code that was already used. */
  | { outcome: "replayed"; cookies: string[] }
  /** The second step is no longer pending (10 minutes passed, or 5 wrong codes): start again. */
  | { outcome: "expired"; cookies: string[] }
  /** Too many failed attempts: wait. */
  | { outcome: "limited"; cookies: string[] };

function services(context: AppLoadContext) {
  const { auth, db, rateLimit } = context;
  if (!auth || !db || !rateLimit) throw new Error("No auth, database or rate limit in the request context");
  return { auth, db, rateLimit };
}

/** Step 1: e-mail and password. */
export async function checkPassword(
  request: Request,
  context: AppLoadContext,
  { email, password }: { email: string; password: string },
): Promise<SignInOutcome> {
  const { auth, db, rateLimit } = services(context);
  const keys = { address: context.clientAddress, account: email };
  if (await rateLimit.isBlocked("sign-in-failure", keys)) {
    await audit(db, { action: "sign-in-limited", details: { step: "password" } }, context.logger);
    return { outcome: "limited", cookies: [] };
  }
  const response = await auth.api.signInEmail({
    body: { email, password, rememberMe: false },
    headers: request.headers,
    asResponse: true,
  });
  const cookies = response.headers.getSetCookie();
  const body = response.ok ? ((await response.json()) as { twoFactorRedirect?: boolean; token?: string }) : null;
  if (body?.twoFactorRedirect) return { outcome: "second-step", cookies };
  if (body?.token) {
    // An account without a second factor (not made by owner:add): no session.
    await db.delete(deskSession).where(eq(deskSession.token, body.token));
    context.logger?.error("desk: an account without a second factor tried to sign in; run npm run owner:reset-2fa");
  }
  await rateLimit.hit("sign-in-failure", keys);
  await audit(db, { action: "sign-in-failed", details: { step: "password" } }, context.logger);
  return { outcome: "refused", cookies: [] };
}

/** Step 2: the TOTP code or a recovery code. */
export async function checkSecondFactor(
  request: Request,
  context: AppLoadContext,
  { code }: { code: string },
): Promise<SignInOutcome> {
  const { auth, db, rateLimit } = services(context);
  const keys = { address: context.clientAddress };
  if (await rateLimit.isBlocked("sign-in-failure", keys)) {
    await audit(db, { action: "sign-in-limited", details: { step: "code" } }, context.logger);
    return { outcome: "limited", cookies: [] };
  }
  const compact = code.replace(/\s+/g, "");
  const isTotp = /^\d{6}$/.test(compact);
  const call = { body: { code: compact }, headers: request.headers, asResponse: true } as const;
  const response = isTotp ? await auth.api.verifyTOTP(call) : await auth.api.verifyBackupCode(call);
  const cookies = response.headers.getSetCookie();
  if (!response.ok) {
    const { code: reason } = (await response.json().catch(() => ({}))) as { code?: string };
    await rateLimit.hit("sign-in-failure", keys);
    await audit(db, { action: "sign-in-failed", details: { step: isTotp ? "totp" : "recovery-code" } }, context.logger);
    const expired = reason === "INVALID_TWO_FACTOR_COOKIE" || reason === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE";
    return { outcome: expired ? "expired" : "refused", cookies };
  }
  const { token, user } = (await response.json()) as { token: string; user: { id: string } };
  if (isTotp && !(await firstUseOfCode(db, user.id, compact))) {
    await db.delete(deskSession).where(eq(deskSession.token, token));
    await rateLimit.hit("sign-in-failure", keys);
    await audit(db, { actor: user.id, action: "sign-in-failed", details: { step: "totp-replayed" } }, context.logger);
    return { outcome: "replayed", cookies: [] };
  }
  await audit(
    db,
    { actor: user.id, action: "sign-in", details: { step: isTotp ? "totp" : "recovery-code" } },
    context.logger,
  );
  return { outcome: "signed-in", cookies };
}

/**
 * Records that `userId` used `code`; false when the same code was accepted
 * within the last 5 minutes (a replay). Forgets older codes.
 */
async function firstUseOfCode(db: NonNullable<AppLoadContext["db"]>, userId: string, code: string): Promise<boolean> {
  await db
    .delete(deskUsedTotp)
    .where(
      and(
        eq(deskUsedTotp.userId, userId),
        lt(deskUsedTotp.usedAt, sql`now() - make_interval(secs => ${USED_CODE_SECONDS})`),
      ),
    );
  const inserted = await db
    .insert(deskUsedTotp)
    .values({ userId, code })
    .onConflictDoNothing()
    .returning({ code: deskUsedTotp.code });
  return inserted.length === 1;
}
