/**
 * The owner's sign-in, for the `/admin/connexion` action:
 *
 * 1. `checkPassword`: e-mail and password (Better Auth `signInEmail`). A
 *    right pair starts the second step (Better Auth's signed `two_factor`
 *    cookie, valid 10 minutes); a wrong one is answered the same way
 *    whether the e-mail exists or not.
 * 2. `checkSecondFactor`: a 6-digit TOTP code (`verifyTOTP`) or a recovery
 *    code (`verifyBackupCode`, each usable once). A TOTP code that already
 *    opened a session is refused (RFC 6238 section 5.2): the new session is
 *    deleted at once.
 * 3. `checkCombined`: e-mail, password and code in one step, asked while
 *    the account is over its allowance of failed passwords. It runs the
 *    two steps above in one request (the `two_factor` cookie the first
 *    makes goes to the second, never to the browser) and answers every
 *    wrong combination the same way, whatever part was wrong, and no
 *    sooner than 1 s after the request came (so that its time does not
 *    tell a right password either).
 *
 * Limits (`SIGN_IN_LIMITS`, counted in the database by `rateLimitContext`,
 * shared by every server process), each at most 5 failures per 15 minutes:
 * - per address, failed passwords and codes: over it, the address waits
 *   (429);
 * - per account (the e-mail typed), failed passwords: over it, the
 *   password alone is no longer checked and the answer, the same for any
 *   password, asks for the code with it (step 3). A stranger who guesses
 *   from many addresses thus learns nothing, and cannot shut the owner out;
 * - per account (its id), failed codes: over it, codes wait (429). Only
 *   someone who knows the password gets this far.
 * A point is taken before the attempt is checked (one atomic upsert, so
 * that attempts sent at once cannot all pass), and given back unless the
 * attempt was checked and failed: a right password, a right code, or an
 * attempt that checked nothing leaves the counters as they were (in the
 * combined step, every refusal keeps its points, whatever part was wrong:
 * the counters must not tell it either). Better
 * Auth adds its own limits: 5 codes per challenge, and a lock after 10
 * failed codes in a row on an account. Every outcome is audited
 * (`audit_log`, no personal data).
 *
 * Each returns an outcome and the `Set-Cookie` values to pass on.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, lt, sql } from "drizzle-orm";
import { deskSession, deskUsedTotp } from "~/db/schema";
import type { LimitKeys } from "~/guards/public-action.server";
import { audit } from "./audit.server";
import {
  authContext,
  clientAddressContext,
  dbContext,
  loggerContext,
  rateLimitContext,
  type RequestContext,
} from "~/context.server";
import type { Database } from "~/db/client.server";

const FIFTEEN_MINUTES = 15 * 60_000;

/** The sign-in's limits (server/rate-limit.ts reads them; issue 13, changed by issue 24). */
export const SIGN_IN_LIMITS = {
  /** Every sign-in POST per address (the public actions' guard): a coarse guard against floods. */
  "sign-in": { limit: 60, windowMs: FIFTEEN_MINUTES },
  /** Failed passwords and codes per address: over it, the address waits. */
  "sign-in-failure": { limit: 5, windowMs: FIFTEEN_MINUTES },
  /** Failed passwords per account (the e-mail typed): over it, the code is asked with the password. */
  "sign-in-account": { limit: 5, windowMs: FIFTEEN_MINUTES },
  /** Failed codes per account (its id): over it, codes wait. */
  "sign-in-code": { limit: 5, windowMs: FIFTEEN_MINUTES },
} as const;

type SignInLimit = keyof typeof SIGN_IN_LIMITS;

/**
 * The combined step refuses no sooner than this after the request came:
 * a right password costs a little more work (the challenge, the code
 * check) than a wrong one, which the time of a quick answer would tell.
 */
const COMBINED_REFUSAL_MS = 1000;

/** How long an accepted TOTP code stays refused: longer than its validity (3 steps of 30 s). */
const USED_CODE_SECONDS = 5 * 60;

export type SignInOutcome =
  /** The password is right: ask for the code. */
  | { outcome: "second-step"; cookies: string[] }
  /** The account is over its allowance of failed passwords: ask e-mail, password and code together. */
  | { outcome: "code-required"; cookies: string[] }
  /** The code is right: signed in. */
  | { outcome: "signed-in"; cookies: string[] }
  /** Wrong e-mail or password, or wrong code (in the combined step: any wrong part). */
  | { outcome: "refused"; cookies: string[] }
  /** A TOTP code that was already used. */
  | { outcome: "replayed"; cookies: string[] }
  /** The second step is no longer pending (10 minutes passed, or 5 wrong codes): start again. */
  | { outcome: "expired"; cookies: string[] }
  /** Too many failed attempts: wait. */
  | { outcome: "limited"; cookies: string[] };

function services(context: RequestContext) {
  return { auth: context.get(authContext), db: context.get(dbContext), rateLimit: context.get(rateLimitContext) };
}

type Services = ReturnType<typeof services>;

/**
 * The points an attempt takes before it is checked: `take` counts one on
 * `keys` of `limit` and says whether that passed the allowance; `giveBack`
 * returns every point taken so far (the attempt was not a failure).
 */
function attemptPoints(rateLimit: Services["rateLimit"]) {
  const taken: [SignInLimit, LimitKeys][] = [];
  return {
    async take(limit: SignInLimit, keys: LimitKeys): Promise<boolean> {
      taken.push([limit, keys]);
      return (await rateLimit.consume(limit, keys)).limited;
    },
    async giveBack(): Promise<void> {
      await Promise.all(taken.splice(0).map(([limit, keys]) => rateLimit.reward(limit, keys)));
    },
  };
}

/**
 * Takes the attempt's point from the address's failure allowance; when it
 * is used up, gives it back, audits the refusal for `step` and returns the
 * `limited` outcome (else null: go on with `points` holding that point).
 */
async function limitedByAddress(
  context: RequestContext,
  points: ReturnType<typeof attemptPoints>,
  step: "password" | "code" | "combined",
): Promise<SignInOutcome | null> {
  if (!(await points.take("sign-in-failure", { address: context.get(clientAddressContext) }))) return null;
  await points.giveBack();
  await audit(
    services(context).db,
    { action: "sign-in-limited", details: { step, limit: "address" } },
    context.get(loggerContext),
  );
  return { outcome: "limited", cookies: [] };
}

/** Step 1: e-mail and password. */
export async function checkPassword(
  request: Request,
  context: RequestContext,
  { email, password }: { email: string; password: string },
): Promise<SignInOutcome> {
  const { db, rateLimit } = services(context);
  const points = attemptPoints(rateLimit);
  const limited = await limitedByAddress(context, points, "password");
  if (limited) return limited;
  if (await points.take("sign-in-account", { account: email })) {
    // The password is not checked: whatever it is, the answer asks for the code with it.
    await points.giveBack();
    await audit(
      db,
      { action: "sign-in-limited", details: { step: "password", limit: "account" } },
      context.get(loggerContext),
    );
    return { outcome: "code-required", cookies: [] };
  }
  const passwordStep = await signInWithPassword(request, context, { email, password });
  if (passwordStep.right) {
    await points.giveBack();
    return { outcome: "second-step", cookies: passwordStep.cookies };
  }
  await audit(db, { action: "sign-in-failed", details: { step: "password" } }, context.get(loggerContext));
  return { outcome: "refused", cookies: [] };
}

/** Step 2: the TOTP code or a recovery code, for the challenge the browser's `two_factor` cookie names. */
export async function checkSecondFactor(
  request: Request,
  context: RequestContext,
  { code }: { code: string },
): Promise<SignInOutcome> {
  const { auth, db, rateLimit } = services(context);
  const points = attemptPoints(rateLimit);
  const limited = await limitedByAddress(context, points, "code");
  if (limited) return limited;
  // Without a pending challenge Better Auth checks no code (the answer is "expired").
  const userId = await pendingAccount(auth, request.headers.get("Cookie") ?? "");
  if (userId && (await points.take("sign-in-code", { account: userId }))) {
    await points.giveBack();
    await audit(
      db,
      { actor: userId, action: "sign-in-limited", details: { step: "code", limit: "account" } },
      context.get(loggerContext),
    );
    return { outcome: "limited", cookies: [] };
  }
  const check = await checkCode(auth, db, request.headers, code);
  switch (check.result) {
    case "accepted":
      await points.giveBack();
      await audit(
        db,
        { actor: check.userId, action: "sign-in", details: { step: check.kind } },
        context.get(loggerContext),
      );
      return { outcome: "signed-in", cookies: check.cookies };
    case "expired":
      await points.giveBack();
      await audit(db, { action: "sign-in-failed", details: { step: "expired" } }, context.get(loggerContext));
      return { outcome: "expired", cookies: check.cookies };
    case "locked":
      await points.giveBack();
      await audit(
        db,
        { action: "sign-in-limited", details: { step: "code", limit: "better-auth" } },
        context.get(loggerContext),
      );
      return { outcome: "limited", cookies: check.cookies };
    case "replayed":
      await audit(
        db,
        { actor: check.userId, action: "sign-in-failed", details: { step: "totp-replayed" } },
        context.get(loggerContext),
      );
      return { outcome: "replayed", cookies: [] };
    case "wrong":
      await audit(
        db,
        { actor: userId, action: "sign-in-failed", details: { step: check.kind } },
        context.get(loggerContext),
      );
      return { outcome: "refused", cookies: check.cookies };
  }
}

/**
 * The combined step: e-mail, password and code in one request, asked while
 * the account is over its allowance of failed passwords. Any wrong part
 * gets the same outcome, `refused`, without a cookie.
 */
export async function checkCombined(
  request: Request,
  context: RequestContext,
  { email, password, code }: { email: string; password: string; code: string },
): Promise<SignInOutcome> {
  const started = performance.now();
  const { auth, db, rateLimit } = services(context);
  const points = attemptPoints(rateLimit);
  const limited = await limitedByAddress(context, points, "combined");
  if (limited) return limited;
  // Counted so that the account stays in this step while it is attacked; over or not, the step is the same.
  await points.take("sign-in-account", { account: email });
  const refused = async (step: string, actor?: string | null): Promise<SignInOutcome> => {
    await audit(db, { actor, action: "sign-in-failed", details: { step } }, context.get(loggerContext));
    await sleep(Math.max(0, started + COMBINED_REFUSAL_MS - performance.now()));
    // No cookie: a challenge the password step made never leaves the server (it expires in 10 minutes).
    return { outcome: "refused", cookies: [] };
  };
  const passwordStep = await signInWithPassword(request, context, { email, password });
  if (!passwordStep.right) return refused("combined-password");
  const headers = new Headers(request.headers);
  headers.set("Cookie", withCookies(request.headers.get("Cookie") ?? "", passwordStep.cookies));
  const userId = await pendingAccount(auth, headers.get("Cookie")!);
  // Over the code allowance the code is not checked; the answer, and the points kept, are those of a wrong password.
  if (!userId || (await points.take("sign-in-code", { account: userId })))
    return refused("combined-code-limited", userId);
  const check = await checkCode(auth, db, headers, code);
  if (check.result !== "accepted") return refused(`combined-${check.result}`, check.userId);
  await points.giveBack();
  await audit(
    db,
    { actor: check.userId, action: "sign-in", details: { step: `combined-${check.kind}` } },
    context.get(loggerContext),
  );
  // The password step's cookies too (`dont_remember` keeps the session cookie to this browser
  // session), but those the code step sets or expires come from the code step.
  const set = new Set(check.cookies.map(cookieName));
  return {
    outcome: "signed-in",
    cookies: [...passwordStep.cookies.filter((cookie) => !set.has(cookieName(cookie))), ...check.cookies],
  };
}

/**
 * Better Auth's password step: `right` with the cookies of the challenge
 * it starts, or not (a wrong pair, an unknown e-mail, or an account without
 * a second factor, whose session is deleted at once).
 */
async function signInWithPassword(
  request: Request,
  context: RequestContext,
  { email, password }: { email: string; password: string },
): Promise<{ right: true; cookies: string[] } | { right: false }> {
  const { auth, db } = services(context);
  const response = await auth.api.signInEmail({
    body: { email, password, rememberMe: false },
    headers: request.headers,
    asResponse: true,
  });
  const body = response.ok ? ((await response.json()) as { twoFactorRedirect?: boolean; token?: string }) : null;
  if (body?.twoFactorRedirect) return { right: true, cookies: response.headers.getSetCookie() };
  if (body?.token) {
    // An account without a second factor (not made by owner:add): no session.
    await db.delete(deskSession).where(eq(deskSession.token, body.token));
    context
      .get(loggerContext)
      .error("desk: an account without a second factor tried to sign in; run npm run owner:reset-2fa");
  }
  return { right: false };
}

type CodeKind = "totp" | "recovery-code";

type CodeCheck =
  /** The code opened a session (its cookies). */
  | { result: "accepted"; kind: CodeKind; userId: string; cookies: string[] }
  /** The code was checked and is wrong. */
  | { result: "wrong"; kind: CodeKind; userId?: undefined; cookies: string[] }
  /** A right TOTP code that already opened a session: the new one is deleted. */
  | { result: "replayed"; kind: CodeKind; userId: string; cookies: string[] }
  /** Nothing was checked: no pending challenge (or it used its 5 codes). */
  | { result: "expired"; kind: CodeKind; userId?: undefined; cookies: string[] }
  /** Nothing was checked: Better Auth's lock after 10 failed codes in a row. */
  | { result: "locked"; kind: CodeKind; userId?: undefined; cookies: string[] };

/** Better Auth's code step (`verifyTOTP` or `verifyBackupCode`) with the challenge cookie of `headers`, and the replay check. */
async function checkCode(
  auth: Services["auth"],
  db: Services["db"],
  headers: Headers,
  code: string,
): Promise<CodeCheck> {
  const compact = code.replace(/\s+/g, "");
  const kind: CodeKind = /^\d{6}$/.test(compact) ? "totp" : "recovery-code";
  const call = { body: { code: compact }, headers, asResponse: true } as const;
  const response = kind === "totp" ? await auth.api.verifyTOTP(call) : await auth.api.verifyBackupCode(call);
  const cookies = response.headers.getSetCookie();
  if (!response.ok) {
    const { code: reason } = (await response.json().catch(() => ({}))) as { code?: string };
    if (reason === "INVALID_TWO_FACTOR_COOKIE" || reason === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE")
      return { result: "expired", kind, cookies };
    if (reason === "ACCOUNT_TEMPORARILY_LOCKED") return { result: "locked", kind, cookies };
    return { result: "wrong", kind, cookies };
  }
  const { token, user } = (await response.json()) as { token: string; user: { id: string } };
  if (kind === "totp" && !(await firstUseOfCode(db, user.id, compact))) {
    await db.delete(deskSession).where(eq(deskSession.token, token));
    return { result: "replayed", kind, userId: user.id, cookies: [] };
  }
  return { result: "accepted", kind, userId: user.id, cookies };
}

/** The name of the cookie a `Set-Cookie` value sets. */
const cookieName = (setCookie: string) => setCookie.slice(0, setCookie.indexOf("=")).trim();

/** A `Cookie` header: `header`'s cookies, with those `setCookies` set (or expire) applied over them. */
function withCookies(header: string, setCookies: string[]): string {
  const jar = new Map<string, string>();
  for (const pair of header.split(/;\s*/).filter(Boolean)) {
    const equals = pair.indexOf("=");
    if (equals > 0) jar.set(pair.slice(0, equals), pair.slice(equals + 1));
  }
  for (const line of setCookies) {
    const [pair = ""] = line.split(";");
    const name = cookieName(pair);
    const value = pair.slice(pair.indexOf("=") + 1);
    if (/;\s*Max-Age=0/i.test(line) || !value) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/**
 * The account (user id) of the challenge that `cookieHeader`'s
 * `two_factor` cookie names, when Better Auth signed that cookie and the
 * challenge is still pending; otherwise null (Better Auth then checks no
 * code either).
 */
async function pendingAccount(auth: Services["auth"], cookieHeader: string): Promise<string | null> {
  const context = await auth.$context;
  const name = context.createAuthCookie("two_factor").name;
  const raw = cookieHeader
    .split(/;\s*/)
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);
  if (!raw) return null;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  // better-call's signed cookie: `${identifier}.${base64 HMAC-SHA256 of the identifier}`.
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const identifier = value.slice(0, dot);
  const signature = Buffer.from(value.slice(dot + 1), "base64");
  const expected = createHmac("sha256", context.secret).update(identifier).digest();
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
  const challenge = await context.internalAdapter.findVerificationValue(identifier);
  return challenge && new Date(challenge.expiresAt).getTime() > Date.now() ? challenge.value : null;
}

/**
 * Records that `userId` used `code`; false when the same code was accepted
 * within the last 5 minutes (a replay). Forgets older codes.
 */
async function firstUseOfCode(db: Database, userId: string, code: string): Promise<boolean> {
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
