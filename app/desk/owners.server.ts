/**
 * Owner accounts, made and repaired on the server (`npm run owner:add`,
 * `npm run owner:reset-2fa`; scripts/owner.ts). There is no sign-up page.
 *
 * `addOwner` creates the account with its password (hashed by Better Auth:
 * scrypt), turns on the second factor and returns the `otpauth://` URI to
 * scan and the ten recovery codes, shown once. `resetSecondFactor` (a lost
 * phone) makes a new TOTP key and new recovery codes after checking the
 * password, and signs the account out everywhere.
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { deskSession, deskTwoFactor, deskUser } from "~/db/schema";
import { audit } from "./audit.server";
import type { DeskAuth } from "./auth.server";
import { passwordProblem } from "./password-policy.server";

/** What the owner needs to set up the authenticator app. */
export interface SecondFactorSetup {
  /** `otpauth://totp/...` (Key Uri Format), to scan as a QR code or type in. */
  totpUri: string;
  /** Ten single-use codes for when the phone is lost. */
  recoveryCodes: string[];
}

/** A refusal the operator can fix (the message says what). */
export class OwnerError extends Error {
  override name = "OwnerError";
}

/** Signs in without the second factor (only possible before it is on) and returns the session's cookie header. */
async function sessionCookie(auth: DeskAuth, email: string, password: string): Promise<string> {
  const response = await auth.api.signInEmail({ body: { email, password }, asResponse: true });
  if (!response.ok) throw new OwnerError("l’e-mail et le mot de passe ne correspondent à aucun compte");
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/**
 * Creates an owner account with a second factor.
 * @throws OwnerError when the password breaks the rule or the e-mail has an account already.
 */
export async function addOwner(
  auth: DeskAuth,
  db: Database,
  { email, password, name }: { email: string; password: string; name?: string },
): Promise<SecondFactorSetup> {
  const address = email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) throw new OwnerError(`« ${email} » n’est pas une adresse e-mail`);
  const problem = passwordProblem(password, address);
  if (problem) throw new OwnerError(problem);
  const [existing] = await db.select({ id: deskUser.id }).from(deskUser).where(eq(deskUser.email, address));
  if (existing)
    throw new OwnerError(
      `${address} a déjà un compte (npm run owner:reset-2fa -- ${address} crée un nouveau second facteur)`,
    );

  const context = await auth.$context;
  const user = await context.internalAdapter.createUser(
    { email: address, name: name ?? address, emailVerified: true },
    { method: "admin" },
  );
  await context.internalAdapter.linkAccount({
    userId: user.id,
    providerId: "credential",
    accountId: user.id,
    password: await context.password.hash(password),
  });
  const setup = await enableSecondFactor(auth, db, { userId: user.id, email: address, password });
  await audit(db, { actor: user.id, action: "owner-added" });
  return setup;
}

/**
 * Turns on TOTP for the account `userId` (its e-mail and password sign in
 * once to do so) and ends every session of the account: Better Auth
 * replaces the session used to turn it on with a new, fully signed-in one
 * whose cookie nobody receives, which must not stay valid.
 */
async function enableSecondFactor(
  auth: DeskAuth,
  db: Database,
  { userId, email, password }: { userId: string; email: string; password: string },
): Promise<SecondFactorSetup> {
  const cookie = await sessionCookie(auth, email, password);
  const enabled = await auth.api.enableTwoFactor({
    body: { password, method: "totp" },
    headers: new Headers({ cookie }),
  });
  if (enabled.method !== "totp") throw new Error("Better Auth did not turn on TOTP");
  await db.delete(deskSession).where(eq(deskSession.userId, userId));
  return { totpUri: enabled.totpURI, recoveryCodes: enabled.backupCodes };
}

/**
 * Replaces the TOTP key and recovery codes of `email` (a lost phone) and
 * ends every session of the account.
 * @throws OwnerError when the e-mail and password do not match an account.
 */
export async function resetSecondFactor(
  auth: DeskAuth,
  db: Database,
  { email, password }: { email: string; password: string },
): Promise<SecondFactorSetup> {
  const address = email.trim().toLowerCase();
  const [user] = await db.select({ id: deskUser.id }).from(deskUser).where(eq(deskUser.email, address));
  if (!user) throw new OwnerError("l’e-mail et le mot de passe ne correspondent à aucun compte");
  const context = await auth.$context;
  const account = (await context.internalAdapter.findAccounts(user.id)).find((row) => row.providerId === "credential");
  if (!account?.password || !(await context.password.verify({ hash: account.password, password }))) {
    throw new OwnerError("l’e-mail et le mot de passe ne correspondent à aucun compte");
  }
  await db.transaction(async (tx) => {
    await tx.delete(deskTwoFactor).where(eq(deskTwoFactor.userId, user.id));
    await tx.update(deskUser).set({ twoFactorEnabled: false }).where(eq(deskUser.id, user.id));
    await tx.delete(deskSession).where(eq(deskSession.userId, user.id));
  });
  const setup = await enableSecondFactor(auth, db, { userId: user.id, email: address, password });
  await audit(db, { actor: user.id, action: "two-factor-reset" });
  return setup;
}
