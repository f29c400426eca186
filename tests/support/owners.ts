/**
 * The owner in tests: made in-process or by `npm run owner:add`, signed in
 * to the desk (password and TOTP code), and the desk's requests with a
 * cookie jar.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as OTPAuth from "otpauth";
import type { Database } from "../../app/db/client.server";
import type * as Schema from "../../app/db/schema";
import { commandArguments } from "../../tooling/build-server";
import { freshDataDir, pgliteTemplatePath } from "./databases";
import { startTestServer } from "./sites";

/** The password of the owners the tests make (long, not a common password). */
export const TEST_OWNER_PASSWORD = "Correct-Horse-Battery-9";

/** An owner account made by `createOwner`, with what `npm run owner:add` prints. */
export interface TestOwner {
  email: string;
  password: string;
  /** The `otpauth://` URI an authenticator app scans. */
  totpUri: string;
  /** The ten single-use recovery codes. */
  recoveryCodes: string[];
}

/** An owner `addOwner` made, for auth secret `secret`: the rows it wrote and its second factor. */
interface OwnerPattern {
  secret: string;
  passwordHash: string;
  totpSecret: string;
  backupCodes: string;
  setup: { totpUri: string; recoveryCodes: string[] };
}
/** The patterns this process knows, by auth secret: the PGlite template's (`ensureOwnerPattern`), then its own. */
const patterns = new Map<string, OwnerPattern>();

/**
 * The file beside the PGlite template (`pgliteTemplatePath`, which hashes the migrations and articles
 * on each call) that holds the owner pattern of its auth secret.
 */
const patternFile = () => path.join(pgliteTemplatePath(), "owner-pattern.json");

/** Reads the template's owner pattern into `patterns`, once per process, when `ensureOwnerPattern` wrote it. */
let templatePatternRead = false;
function readTemplatePattern(): void {
  if (templatePatternRead) return;
  templatePatternRead = true;
  const file = patternFile();
  if (!fs.existsSync(file)) return;
  const pattern = JSON.parse(fs.readFileSync(file, "utf8")) as OwnerPattern;
  patterns.set(pattern.secret, pattern);
}

/**
 * Makes the owner pattern of the PGlite template's auth secret, once per
 * template (the global setup calls it after `ensurePgliteTemplate`): an
 * owner made by `addOwner` on a copy of the template, its rows written to
 * `owner-pattern.json` beside the template. Every test process's
 * `createOwner` then copies it, where each made its first owner with
 * `addOwner` (the password policy's dictionaries, Better Auth, three scrypt
 * runs: about 3 s of CPU a process, 9 processes a run).
 */
export async function ensureOwnerPattern(): Promise<void> {
  const file = patternFile();
  if (fs.existsSync(file)) return;
  const dataDir = freshDataDir();
  try {
    const { openDatabase } = await import("../../app/db/client.server");
    const opened = await openDatabase({ dataDir });
    try {
      const pattern = await makePattern(opened.db, "pattern@example.ch");
      const draft = `${file}.draft-${process.pid}`;
      fs.writeFileSync(draft, JSON.stringify(pattern));
      fs.renameSync(draft, file);
    } finally {
      await opened.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `addOwner` for `email` on `db`, and the rows it wrote. */
async function makePattern(db: Database, email: string): Promise<OwnerPattern> {
  const [{ createDeskAuth, resolveAuthSecret }, { addOwner }, tables, { eq }] = await Promise.all([
    import("../../app/desk/auth.server"),
    import("../../app/desk/owners.server"),
    import("../../app/db/schema"),
    import("drizzle-orm"),
  ]);
  const secret = await resolveAuthSecret(db, undefined);
  const auth = createDeskAuth({ db, siteUrl: "http://localhost:3000", secret });
  const setup = await addOwner(auth, db, { email, password: TEST_OWNER_PASSWORD });
  const [rows] = await db
    .select({
      passwordHash: tables.deskAccount.password,
      totpSecret: tables.deskTwoFactor.secret,
      backupCodes: tables.deskTwoFactor.backupCodes,
    })
    .from(tables.deskUser)
    .innerJoin(tables.deskAccount, eq(tables.deskAccount.userId, tables.deskUser.id))
    .innerJoin(tables.deskTwoFactor, eq(tables.deskTwoFactor.userId, tables.deskUser.id))
    .where(eq(tables.deskUser.email, email));
  return { secret, ...rows!, passwordHash: rows!.passwordHash!, setup };
}

/**
 * Creates a desk owner with a second factor, as `npm run owner:add` does
 * (`addOwner`), on `target`: the open database of a running test server
 * (`site.database.db`), a `postgres://` URL, or a DATA_DIR whose server is
 * stopped (PGlite allows one process at a time). The auth secret is the one
 * kept in the database, which the site reads when AUTH_SECRET is unset; a
 * database that has none yet gets the one of a pattern this process knows.
 *
 * Owners are copies of a pattern made by `addOwner` (password policy,
 * scrypt hash, Better Auth's sign-in and TOTP set-up: three scrypt runs)
 * for the database's auth secret: the PGlite template's (`ensureOwnerPattern`,
 * made once) or, for another secret (a PostgreSQL database), the one this
 * process's first owner of that secret made. A copy has its own id and
 * e-mail and the same password hash, TOTP secret and recovery codes (the
 * two encrypted with that auth secret), each account with its own rows, so
 * one's used code or session is not the other's. `addOwner` itself is the
 * subject of the owner command's and the desk's tests. The e-mail must be
 * new to the database.
 */
export async function createOwner(target: Database | string, email = "owner@example.ch"): Promise<TestOwner> {
  // Imported here: the database client and the schema, which the browser tests' runner and the
  // workers that make no owner never need.
  const [{ openDatabase }, tables, { eq }] = await Promise.all([
    import("../../app/db/client.server"),
    import("../../app/db/schema"),
    import("drizzle-orm"),
  ]);
  const opened =
    typeof target === "string"
      ? await openDatabase(
          target.startsWith("postgres") ? { databaseUrl: target, dataDir: "unused" } : { dataDir: target },
        )
      : null;
  const db = opened?.db ?? (target as Database);
  try {
    readTemplatePattern();
    const [knownSecret] = patterns.keys();
    if (knownSecret)
      await db.insert(tables.siteSecrets).values({ name: "auth", value: knownSecret }).onConflictDoNothing();
    const [row] = await db
      .select({ value: tables.siteSecrets.value })
      .from(tables.siteSecrets)
      .where(eq(tables.siteSecrets.name, "auth"));
    const known = row && patterns.get(row.value);
    if (known) return await copyOwner(db, tables, known, email);
    // A secret no pattern has (or none yet): this owner, made by `addOwner`, is the pattern of the next.
    const pattern = await makePattern(db, email);
    patterns.set(pattern.secret, pattern);
    return { email, password: TEST_OWNER_PASSWORD, ...pattern.setup };
  } finally {
    await opened?.close();
  }
}

/** Writes the rows `addOwner` writes for an owner `email`, from `pattern`, and its audit line. */
async function copyOwner(
  db: Database,
  tables: typeof Schema,
  pattern: OwnerPattern,
  email: string,
): Promise<TestOwner> {
  const { audit } = await import("../../app/desk/audit.server");
  const userId = randomBytes(16).toString("hex");
  await db.transaction(async (tx) => {
    await tx
      .insert(tables.deskUser)
      .values({ id: userId, name: email, email, emailVerified: true, twoFactorEnabled: true });
    await tx.insert(tables.deskAccount).values({
      id: randomBytes(16).toString("hex"),
      accountId: userId,
      providerId: "credential",
      userId,
      password: pattern.passwordHash,
    });
    await tx.insert(tables.deskTwoFactor).values({
      id: randomBytes(16).toString("hex"),
      secret: pattern.totpSecret,
      backupCodes: pattern.backupCodes,
      userId,
    });
    await audit(tx, { actor: userId, action: "owner-added" });
  });
  const uri = OTPAuth.URI.parse(pattern.setup.totpUri);
  uri.label = email;
  return { email, password: TEST_OWNER_PASSWORD, totpUri: uri.toString(), recoveryCodes: pattern.setup.recoveryCodes };
}

/**
 * Creates an owner with the operator's own command, `npm run owner:add --
 * EMAIL` (scripts/owner.ts compiled into the build), the password piped on standard input, against
 * `env` (`DATA_DIR` of a stopped site, or `DATABASE_URL`); reads the
 * `otpauth://` URI and the recovery codes from what it prints.
 * @throws with the command's output when it does not succeed.
 */
export function ownerAddCommand(env: Record<string, string>, email: string): TestOwner {
  const result = spawnSync(process.execPath, [...commandArguments("owner", process.env.BUILD_DIR), "add", email], {
    input: `${TEST_OWNER_PASSWORD}\n`,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "warn", ...env },
  });
  const totpUri = /^otpauth:\/\/\S+$/m.exec(result.stdout)?.[0];
  const recoveryCodes = result.stdout
    .split(/Codes de secours[^\n]*\n/)[1]
    ?.split("\n")
    .filter((line) => /^ {2}\S+$/.test(line))
    .map((line) => line.trim());
  if (result.status !== 0 || !totpUri || !recoveryCodes?.length)
    throw new Error(`owner:add failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return { email, password: TEST_OWNER_PASSWORD, totpUri, recoveryCodes };
}

/** The TOTP code `owner`'s authenticator app shows at `timestamp` (now by default). */
export function totpCode(owner: Pick<TestOwner, "totpUri">, timestamp = Date.now()): string {
  return OTPAuth.URI.parse(owner.totpUri).generate({ timestamp });
}

/** The cookies a browser would keep for the site: fed with answers, read as a `Cookie` header. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Stores the `Set-Cookie` values of `response`; a cookie set to expire is dropped. */
  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const equals = pair.indexOf("=");
      const name = pair.slice(0, equals).trim();
      if (/;\s*Max-Age=0/i.test(line) || !pair.slice(equals + 1)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(equals + 1));
    }
  }

  /** The value of cookie `name`, if kept. */
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** The `Cookie` request header. */
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** A copy, to go on from the same point in another "browser". */
  clone(): CookieJar {
    const copy = new CookieJar();
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }
}

/**
 * A request to the desk as a browser on the site's own pages sends it:
 * `Origin` set to the site (override it in `headers`), the jar's cookies,
 * redirects not followed; a `form` is sent url-encoded with POST. The
 * answer's cookies go into the jar.
 */
export async function deskFetch(
  baseUrl: string,
  pathname: string,
  {
    jar,
    form,
    method = form ? "POST" : "GET",
    headers = {},
  }: {
    jar?: CookieJar;
    /** Fields by name; `URLSearchParams` for a name posted several times (ticked boxes). */
    form?: Record<string, string> | URLSearchParams;
    method?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const response = await fetch(`${baseUrl}${pathname}`, {
    method,
    redirect: "manual",
    headers: {
      Origin: baseUrl,
      ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      ...(jar ? { Cookie: jar.header() } : {}),
      ...headers,
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  jar?.keep(response);
  return response;
}

/** The text of the sign-in page's alert (`role="alert"`) in an HTML answer, or null. */
export function alertText(html: string): string | null {
  const match = /<p role="alert"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  return match ? match[1]!.replace(/<[^>]+>/g, "").trim() : null;
}

/**
 * The first sign-in step (e-mail and password) from `address` (sent as
 * `X-Forwarded-For`, which the site trusts from loopback), as the no-JS
 * form posts it. Resolves with the answer (303 when the password is right).
 */
export function postPassword(
  baseUrl: string,
  jar: CookieJar,
  { email, password }: { email: string; password: string },
  address = "198.51.100.1",
): Promise<Response> {
  return deskFetch(baseUrl, "/admin/connexion", {
    jar,
    form: { step: "password", email, password, website: "" },
    headers: { "X-Forwarded-For": address },
  });
}

/** The second sign-in step: a TOTP or recovery `code`. Resolves with the answer (303 to /admin when accepted). */
export function postCode(baseUrl: string, jar: CookieJar, code: string, address = "198.51.100.1"): Promise<Response> {
  return deskFetch(baseUrl, "/admin/connexion", {
    jar,
    form: { step: "code", code, website: "" },
    headers: { "X-Forwarded-For": address },
  });
}

/**
 * The combined sign-in step (e-mail, password and code in one form, asked
 * while the account is over its allowance of failed passwords) from
 * `address`. Resolves with the answer (303 to /admin when accepted).
 */
export function postCombined(
  baseUrl: string,
  jar: CookieJar,
  { email, password, code }: { email: string; password: string; code: string },
  address = "198.51.100.1",
): Promise<Response> {
  return deskFetch(baseUrl, "/admin/connexion", {
    jar,
    form: { step: "combined", email, password, code, website: "" },
    headers: { "X-Forwarded-For": address },
  });
}

/**
 * Signs `owner` in (password, then `code`: the current TOTP code by
 * default) and resolves with the jar that holds the session cookie.
 * @throws when a step is not accepted.
 */
export async function signIn(baseUrl: string, owner: TestOwner, code = totpCode(owner)): Promise<CookieJar> {
  const jar = new CookieJar();
  const first = await postPassword(baseUrl, jar, owner);
  if (first.status !== 303) throw new Error(`password step answered ${first.status}`);
  const second = await postCode(baseUrl, jar, code);
  if (second.status !== 303 || second.headers.get("location") !== "/admin")
    throw new Error(`code step answered ${second.status}: ${alertText(await second.text())}`);
  return jar;
}

/**
 * The desk's article editor on a test server (`startTestServer({})`) with an
 * owner signed in: `get(path)` fetches a public page, `create(title)` makes
 * a draft and returns its id, `edit(id, form)` posts the editor's form.
 * Close it with `site.close()`.
 */
export async function startArticleDesk() {
  const site = await startTestServer({});
  const jar = await signIn(site.url, await createOwner(site.database.db));
  return {
    site,
    jar,
    get: (pathname: string) => fetch(`${site.url}${pathname}`),
    async create(title: string): Promise<number> {
      const created = await deskFetch(site.url, "/admin/articles", { jar, form: { title } });
      return Number(created.headers.get("location")!.split("/").pop());
    },
    edit: (id: number, form: Record<string, string>) => deskFetch(site.url, `/admin/articles/${id}`, { jar, form }),
  };
}
