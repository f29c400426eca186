/**
 * The owner's sign-in (issue 13, "Accounts and sign-in"), over HTTP as the
 * browser without JavaScript posts it: a TOTP code opens one session and is
 * refused a second time; a recovery code works once; "se déconnecter
 * partout" ends the account's other sessions; failed attempts are limited
 * (5 per 15 minutes) per address and per account, in the database, so that
 * two server processes on one PostgreSQL share the count; and a refusal
 * never tells whether the e-mail has an account. Issue 24: attempts sent at
 * once are counted before they are checked (at most 5 checked), and an
 * account over its allowance asks e-mail, password and code in one step,
 * which a stranger cannot lock and which answers every wrong combination
 * alike.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/db/client.server";
import { auditLog, deskSession, deskTwoFactor, deskUser } from "../../app/db/schema";
import { signInMessages } from "../../app/desk/sign-in-form";
import {
  alertText,
  CookieJar,
  createOwner,
  deskFetch,
  postCode,
  postCombined,
  postgresBinaries,
  postPassword,
  signIn,
  spawnSite,
  startPostgres,
  startTestServer,
  totpCode,
  type SpawnedSite,
  type TestOwner,
} from "../support/harness";

const SESSION_COOKIE = "bureau.session_token";
const PENDING_COOKIE = "bureau.two_factor";

/** Whether the jar's session opens the inbox (200), rather than being sent to the sign-in page. */
async function opensInbox(baseUrl: string, jar: CookieJar): Promise<boolean> {
  const answer = await deskFetch(baseUrl, "/admin", { jar });
  if (answer.status === 200) return (await answer.text()).includes("Demandes de contact");
  expect(answer.status).toBe(303);
  expect(answer.headers.get("location")).toBe("/admin/connexion");
  return false;
}

/** A refused attempt: its status, the message shown and whether any cookie came with it. */
async function refusal(answer: Response) {
  return {
    status: answer.status,
    message: alertText(await answer.text()),
    cookies: answer.headers.getSetCookie().filter((cookie) => !/Max-Age=0/i.test(cookie)).length,
  };
}

describe("signing in with the second factor", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    site = await startTestServer({});
  });
  afterAll(() => site?.close());

  /** How many sessions `owner` has in the database. */
  async function sessionsOf(owner: TestOwner): Promise<number> {
    const rows = await site.database.db
      .select({ id: deskSession.id })
      .from(deskSession)
      .innerJoin(deskUser, eq(deskUser.id, deskSession.userId))
      .where(eq(deskUser.email, owner.email));
    return rows.length;
  }

  it("password then TOTP opens the inbox with an HttpOnly, SameSite=Lax session cookie", async () => {
    const owner = await createOwner(site.database.db, "totp@example.ch");
    // Making the account (owner:add) leaves no session behind.
    expect(await sessionsOf(owner)).toBe(0);
    const jar = new CookieJar();
    const first = await postPassword(site.url, jar, owner);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/admin/connexion");
    expect(jar.get(SESSION_COOKIE)).toBeUndefined();
    expect(jar.get(PENDING_COOKIE)).toBeTruthy();
    // The password alone opens nothing.
    expect(await opensInbox(site.url, jar)).toBe(false);

    const second = await postCode(site.url, jar, totpCode(owner));
    expect(second.status).toBe(303);
    expect(second.headers.get("location")).toBe("/admin");
    const cookie = second.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
    expect(await opensInbox(site.url, jar)).toBe(true);
    expect(await sessionsOf(owner)).toBe(1);
  });

  it("a TOTP code that opened a session is refused for a second sign-in, which gets no session", async () => {
    const owner = await createOwner(site.database.db, "replay@example.ch");
    const code = totpCode(owner);
    const first = await signIn(site.url, owner, code);
    expect(await opensInbox(site.url, first)).toBe(true);

    const thief = new CookieJar();
    expect((await postPassword(site.url, thief, owner, "203.0.113.9")).status).toBe(303);
    const replayed = await postCode(site.url, thief, code, "203.0.113.9");
    expect(replayed.status).toBe(401);
    expect(alertText(await replayed.text())).toBe(signInMessages.replayed);
    expect(signInMessages.replayed).toMatch(/^Ce code a déjà servi/);
    expect(thief.get(SESSION_COOKIE)).toBeUndefined();
    expect(await opensInbox(site.url, thief)).toBe(false);
    expect(await sessionsOf(owner)).toBe(1);
    // The first session is untouched.
    expect(await opensInbox(site.url, first)).toBe(true);
  });

  it("a recovery code opens one session; used again it is refused", async () => {
    const owner = await createOwner(site.database.db, "recovery@example.ch");
    expect(owner.recoveryCodes).toHaveLength(10);
    const [code] = owner.recoveryCodes as [string];
    const jar = await signIn(site.url, owner, code);
    expect(await opensInbox(site.url, jar)).toBe(true);

    const again = new CookieJar();
    expect((await postPassword(site.url, again, owner, "203.0.113.10")).status).toBe(303);
    const reused = await postCode(site.url, again, code, "203.0.113.10");
    expect(await refusal(reused)).toEqual({ status: 401, message: signInMessages.codeRefused, cookies: 0 });
    expect(await opensInbox(site.url, again)).toBe(false);
    expect(await sessionsOf(owner)).toBe(1);
    // Another recovery code still works.
    expect(await opensInbox(site.url, await signIn(site.url, owner, owner.recoveryCodes[1]))).toBe(true);
  });

  it("sign-out here ends this session only; sign-out everywhere ends every session of the account", async () => {
    const owner = await createOwner(site.database.db, "signout@example.ch");
    const bystander = await createOwner(site.database.db, "bystander@example.ch");
    const other = await signIn(site.url, bystander);
    const [laptop, phone, tablet] = [
      await signIn(site.url, owner),
      await signIn(site.url, owner, owner.recoveryCodes[0]),
      await signIn(site.url, owner, owner.recoveryCodes[1]),
    ];
    expect(await sessionsOf(owner)).toBe(3);

    const here = await deskFetch(site.url, "/admin/deconnexion", { jar: tablet, form: { intent: "ici" } });
    expect(here.status).toBe(303);
    expect(here.headers.get("location")).toBe("/admin/connexion");
    expect(await opensInbox(site.url, tablet)).toBe(false);
    expect(await opensInbox(site.url, phone)).toBe(true);

    const everywhere = await deskFetch(site.url, "/admin/deconnexion", { jar: laptop, form: { intent: "partout" } });
    expect(everywhere.status).toBe(303);
    expect(await opensInbox(site.url, laptop)).toBe(false);
    expect(await opensInbox(site.url, phone)).toBe(false);
    expect(await sessionsOf(owner)).toBe(0);
    // Another account is not signed out.
    expect(await opensInbox(site.url, other)).toBe(true);
  });
});

describe("failed sign-in attempts", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    site = await startTestServer({});
  });
  afterAll(() => site?.close());

  const wrong = (owner: TestOwner) => ({ email: owner.email, password: "Not-The-Password-42" });

  it("a wrong password and an unknown e-mail get the same answer", async () => {
    const owner = await createOwner(site.database.db, "exists@example.ch");
    const known = await refusal(await postPassword(site.url, new CookieJar(), wrong(owner), "203.0.113.20"));
    const unknown = await refusal(
      await postPassword(
        site.url,
        new CookieJar(),
        { email: "nobody@example.ch", password: "Not-The-Password-42" },
        "203.0.113.21",
      ),
    );
    expect(known).toEqual({ status: 401, message: signInMessages.refused, cookies: 0 });
    expect(unknown).toEqual(known);
  });

  it("the 6th wrong password is limited (429), and then even the right password is", async () => {
    const owner = await createOwner(site.database.db, "limited@example.ch");
    const statuses = [];
    for (let attempt = 0; attempt < 6; attempt++)
      statuses.push((await postPassword(site.url, new CookieJar(), wrong(owner), "203.0.113.30")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const limited = await refusal(await postPassword(site.url, new CookieJar(), wrong(owner), "203.0.113.30"));
    expect(limited).toEqual({ status: 429, message: signInMessages.limited, cookies: 0 });
    expect(limited.message).toMatch(/^Trop de tentatives/);
    const right = await postPassword(site.url, new CookieJar(), owner, "203.0.113.30");
    expect(right.status).toBe(429);
  });

  it("is limited per account: after 5 wrong passwords from 5 addresses, a 6th gets no answer to the password alone", async () => {
    const owner = await createOwner(site.database.db, "account@example.ch");
    for (let attempt = 1; attempt <= 5; attempt++)
      expect((await postPassword(site.url, new CookieJar(), wrong(owner), `203.0.113.${40 + attempt}`)).status).toBe(
        401,
      );
    const fresh = await postPassword(site.url, new CookieJar(), owner, "203.0.113.49");
    expect(fresh.headers.getSetCookie()).toEqual([]);
    expect(fresh.status).toBe(401);
    expect(await fresh.text()).toContain(signInMessages.codeRequired);
  });

  it("is limited per address: 5 wrong attempts on other e-mails lock the address out of the owner's account", async () => {
    const owner = await createOwner(site.database.db, "address@example.ch");
    for (let attempt = 1; attempt <= 5; attempt++) {
      const guess = { email: `guess${attempt}@example.ch`, password: "Not-The-Password-42" };
      expect((await postPassword(site.url, new CookieJar(), guess, "203.0.113.50")).status).toBe(401);
    }
    expect((await postPassword(site.url, new CookieJar(), owner, "203.0.113.50")).status).toBe(429);
    // The owner from another address is not locked out.
    expect((await postPassword(site.url, new CookieJar(), owner, "203.0.113.51")).status).toBe(303);
  });
});

describe("attempts sent at once, and the owner's combined step (issue 24)", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    site = await startTestServer({});
  });
  afterAll(() => site?.close());

  const wrong = (owner: TestOwner) => ({ email: owner.email, password: "Not-The-Password-42" });
  /** A 6-digit code that is not `code` (nor its neighbours in time, which differ anyway). */
  const otherThan = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, "0");
  const many = <T>(count: number, make: (index: number) => Promise<T>) =>
    Promise.all(Array.from({ length: count }, (_, index) => make(index)));

  /** How many audit rows `action` has so far. */
  async function auditRows(action: string): Promise<number> {
    return (await site.database.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.action, action)))
      .length;
  }

  /** How many wrong codes Better Auth has checked for `owner` since its last accepted one. */
  async function codesChecked(owner: TestOwner): Promise<number> {
    const [row] = await site.database.db
      .select({ count: deskTwoFactor.failedVerificationCount })
      .from(deskTwoFactor)
      .innerJoin(deskUser, eq(deskUser.id, deskTwoFactor.userId))
      .where(eq(deskUser.email, owner.email));
    return row?.count ?? 0;
  }

  /** Everything a client can read in an answer: status, cookies, and the page (its per-request nonce aside). */
  async function everything(answer: Response) {
    return {
      status: answer.status,
      cookies: answer.headers.getSetCookie(),
      body: (await answer.text()).replace(/nonce="[^"]*"/g, 'nonce=""'),
    };
  }

  /** 5 wrong passwords for `owner`, each from an address of its own (`prefix` + 1..5). */
  async function failFiveTimes(owner: TestOwner, prefix: string) {
    for (let attempt = 1; attempt <= 5; attempt++)
      expect((await postPassword(site.url, new CookieJar(), wrong(owner), `${prefix}${attempt}`)).status).toBe(401);
  }

  it("40 wrong passwords sent at once from one address: at most 5 are checked, then the right one is refused", async () => {
    const owner = await createOwner(site.database.db, "race-password@example.ch");
    const failedBefore = await auditRows("sign-in-failed");
    const statuses = await many(
      40,
      async () => (await postPassword(site.url, new CookieJar(), wrong(owner), "203.0.113.70")).status,
    );
    const checked = (await auditRows("sign-in-failed")) - failedBefore;
    expect(checked).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 401)).toHaveLength(checked);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - checked);
    const right = await postPassword(site.url, new CookieJar(), owner, "203.0.113.70");
    expect(right.status).toBe(429);
    expect(alertText(await right.text())).toBe(signInMessages.limited);
  });

  // 20 challenges: each costs a password check (scrypt); 20 codes at once are four times the allowance.
  it("20 wrong codes sent at once, on 20 challenges from 20 addresses: at most 5 are checked", async () => {
    const owner = await createOwner(site.database.db, "race-code@example.ch");
    const jars: CookieJar[] = [];
    for (let index = 0; index < 20; index++) {
      const jar = new CookieJar();
      expect((await postPassword(site.url, jar, owner, `192.0.2.${index + 1}`)).status).toBe(303);
      jars.push(jar);
    }
    const code = otherThan(totpCode(owner));
    const statuses = await many(
      20,
      async (index) => (await postCode(site.url, jars[index]!, code, `192.0.2.${index + 1}`)).status,
    );
    const checked = await codesChecked(owner);
    expect(checked).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 401)).toHaveLength(checked);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - checked);
    // Only someone who knows the password gets here: the right code waits too.
    const jar = new CookieJar();
    expect((await postPassword(site.url, jar, owner, "192.0.2.41")).status).toBe(303);
    const right = await postCode(site.url, jar, totpCode(owner), "192.0.2.41");
    expect(right.status).toBe(429);
    expect(await codesChecked(owner)).toBe(checked);
  });

  it("5 wrong passwords from 5 addresses: from a 6th, the owner signs in with e-mail, password and code in one step", async () => {
    const owner = await createOwner(site.database.db, "stranger@example.ch");
    await failFiveTimes(owner, "203.0.113.8");
    const jar = new CookieJar();
    const asked = await postPassword(site.url, jar, owner, "203.0.113.89");
    const page = await asked.text();
    expect(asked.status).toBe(401);
    expect(page).toContain(signInMessages.codeRequired);
    expect(page).toMatch(/<input[^>]*name="code"/);
    expect(page).toMatch(/<input[^>]*name="password"/);
    expect(jar.get(PENDING_COOKIE)).toBeUndefined();
    const inside = await postCombined(site.url, jar, { ...owner, code: totpCode(owner) }, "203.0.113.89");
    expect(inside.status).toBe(303);
    expect(inside.headers.get("location")).toBe("/admin");
    expect(await opensInbox(site.url, jar)).toBe(true);
  });

  it("over the account's allowance, a wrong password and a wrong code get the very same answer", async () => {
    const owner = await createOwner(site.database.db, "leak@example.ch");
    await failFiveTimes(owner, "203.0.113.9");
    // The password step no longer tells a right password from a wrong one.
    const right = await everything(await postPassword(site.url, new CookieJar(), owner, "203.0.113.100"));
    const wrongPassword = await everything(
      await postPassword(site.url, new CookieJar(), wrong(owner), "203.0.113.101"),
    );
    expect(wrongPassword).toEqual(right);
    expect(right).toMatchObject({ status: 401, cookies: [] });

    const code = totpCode(owner);
    const { email, password } = owner;
    const refusals = [
      await postCombined(site.url, new CookieJar(), { email, password: "Not-The-Password-42", code }, "203.0.113.102"),
      await postCombined(site.url, new CookieJar(), { email, password, code: otherThan(code) }, "203.0.113.103"),
      await postCombined(site.url, new CookieJar(), { email, password, code: "abcde-fghij" }, "203.0.113.104"),
      await postCombined(
        site.url,
        new CookieJar(),
        { email, password: "Not-The-Password-42", code: otherThan(code) },
        "203.0.113.105",
      ),
    ];
    const [first, ...others] = await Promise.all(refusals.map(everything));
    for (const other of others) expect(other).toEqual(first);
    // Nor does the time: a refusal comes 1 s after the request at the earliest, whatever part was wrong.
    for (const part of [
      { password: "Not-The-Password-42", code },
      { password, code: otherThan(code) },
    ]) {
      const started = performance.now();
      await postCombined(site.url, new CookieJar(), { email, ...part }, "203.0.113.107");
      expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    }
    expect(first).toMatchObject({ status: 401, cookies: [] });
    expect(alertText(first!.body)).toBe(signInMessages.combinedRefused);

    // The right combination still opens the desk (a code of now: the one above may have expired on a busy machine).
    const jar = new CookieJar();
    expect((await postCombined(site.url, jar, { ...owner, code: totpCode(owner) }, "203.0.113.108")).status).toBe(303);
    expect(await opensInbox(site.url, jar)).toBe(true);
  });
});

describe.runIf(postgresBinaries() || process.env.CI)("failed attempts on two server processes, one PostgreSQL", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let owner: TestOwner;
  const sites: SpawnedSite[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
    owner = await createOwner(postgres.url, "shared@example.ch");
    for (let index = 0; index < 2; index++) {
      const site = await spawnSite({ DATABASE_URL: postgres.url });
      sites.push(site);
      await site.ready();
    }
  }, 240_000);
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
    postgres?.destroy();
  });

  it("3 wrong passwords on one process and 3 on the other: the 6th is limited, and both ask for the code", async () => {
    const [a, b] = sites as [SpawnedSite, SpawnedSite];
    const wrong = { email: owner.email, password: "Not-The-Password-42" };
    const statuses = [];
    for (const site of [a, a, a, b, b, b])
      statuses.push((await postPassword(site.url, new CookieJar(), wrong, "203.0.113.60")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // The account is over its allowance on both processes: the password alone gets no answer.
    for (const site of [a, b]) {
      const answer = await postPassword(site.url, new CookieJar(), owner, "203.0.113.61");
      expect(answer.headers.getSetCookie()).toEqual([]);
      expect(answer.status).toBe(401);
      expect(await answer.text()).toContain(signInMessages.codeRequired);
    }
  });

  it("40 wrong passwords sent at once from one address, half to each process: at most 5 are checked", async () => {
    const [a, b] = sites as [SpawnedSite, SpawnedSite];
    const racer = await createOwner(postgres.url, "race-two-processes@example.ch");
    const database = await openDatabase({ databaseUrl: postgres.url, dataDir: "unused" });
    try {
      const failed = async () =>
        (await database.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.action, "sign-in-failed")))
          .length;
      const before = await failed();
      const wrong = { email: racer.email, password: "Not-The-Password-42" };
      const statuses = await Promise.all(
        Array.from(
          { length: 40 },
          async (_, index) =>
            (await postPassword((index % 2 ? a : b).url, new CookieJar(), wrong, "203.0.113.63")).status,
        ),
      );
      const checked = (await failed()) - before;
      expect(checked).toBeLessThanOrEqual(5);
      expect(statuses.filter((status) => status === 401)).toHaveLength(checked);
      expect(statuses.filter((status) => status === 429)).toHaveLength(40 - checked);
    } finally {
      await database.close();
    }
  });

  it("a session opened on one process is valid on the other, and a TOTP code used on one is refused on the other", async () => {
    const [a, b] = sites as [SpawnedSite, SpawnedSite];
    const other = await createOwner(postgres.url, "twoprocesses@example.ch");
    const code = totpCode(other);
    const jar = await signIn(a.url, other, code);
    expect(await opensInbox(b.url, jar)).toBe(true);
    const replay = new CookieJar();
    expect((await postPassword(b.url, replay, other, "203.0.113.62")).status).toBe(303);
    expect(await refusal(await postCode(b.url, replay, code, "203.0.113.62"))).toEqual({
      status: 401,
      message: signInMessages.replayed,
      cookies: 0,
    });
  });
});
