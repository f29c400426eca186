/**
 * Shared steps of the browser tests that run a site of their own
 * (`spawnSite`): the owner's sign-in through the desk's pages or through its
 * requests (cookies given to the browser), and a page checked and
 * photographed at the two widths the owner and visitors use.
 */
import fs from "node:fs";
import {
  expect,
  test,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from "@playwright/test";
import {
  createOwner,
  deskFetch,
  freshDataDir,
  ownerAddCommand,
  signIn,
  spawnSite,
  totpCode,
  type CookieJar,
  type SpawnedSite,
  type TestOwner,
} from "../support/harness";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph, waitForHydration } from "./helpers";

/** A site of a spec file's own, its DATA_DIR and its owners (filled in before the file's first test). */
export interface OwnSite<K extends string> {
  site: SpawnedSite;
  dataDir: string;
  owners: Record<K, TestOwner>;
}

/**
 * Gives the spec file a site of its own (`spawnSite`, embedded database):
 * before its tests, a fresh DATA_DIR, an owner per e-mail of `ownerEmails`
 * made in this process (`createOwner`, what `npm run owner:add` runs) or,
 * for the keys in `byCommand`, with the command itself (the site stopped,
 * as PGlite requires), then the site with `env` (read then, so that it may
 * name peers started before); after them, the site stopped and its folder
 * removed.
 */
export function setUpOwnSite<K extends string>(
  ownerEmails: Record<K, string>,
  env: () => Promise<Record<string, string>> | Record<string, string> = () => ({}),
  { byCommand = [] }: { byCommand?: NoInfer<K>[] } = {},
): OwnSite<K> {
  const own = { owners: {} } as OwnSite<K>;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    own.dataDir = freshDataDir();
    for (const [key, email] of Object.entries(ownerEmails) as [K, string][])
      own.owners[key] = byCommand.includes(key)
        ? ownerAddCommand({ DATA_DIR: own.dataDir }, email)
        : await createOwner(own.dataDir, email);
    own.site = await spawnSite({ DATA_DIR: own.dataDir, LOG_LEVEL: "warn", ...(await env()) });
    await own.site.ready();
  });
  test.afterAll(async () => {
    await own.site?.stop();
    if (own.dataDir) fs.rmSync(own.dataDir, { recursive: true, force: true });
  });
  return own;
}

/**
 * At 1280 then 375 px: no horizontal scroll, no axe violation, and a
 * full-page screenshot `screenshots/{name}-{width}.png` (`photograph`: with E2E_SCREENSHOTS=1); at 320 px (the
 * narrowest phone the site serves), no horizontal scroll. The viewport is
 * given back as it was. With `aaaContrast`, axe's run also checks WCAG AAA
 * contrast (`expectNoAxeViolations`).
 */
export async function checkAtBothWidths(page: Page, name: string, { aaaContrast = false } = {}): Promise<void> {
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page, { aaaContrast });
    await photograph(page, `screenshots/${name}-${width}.png`, { fullPage: true });
  }
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoHorizontalScroll(page);
  await page.setViewportSize(before);
}

/**
 * `checkAtBothWidths` for a page opened without JavaScript (axe needs
 * scripts): its document as it stands, scripts removed, is served again at
 * its address to a page of a new context that runs them, and checked there.
 */
export async function checkAtBothWidthsWithoutScript(page: Page, name: string): Promise<void> {
  const address = page.url();
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const context = await page.context().browser()!.newContext({ viewport: page.viewportSize() });
  try {
    const copy = await context.newPage();
    await copy.route(
      (url) => url.href === address,
      (route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: html }),
    );
    await copy.goto(address);
    await checkAtBothWidths(copy, name);
  } finally {
    await context.close();
  }
}

/**
 * Gives the browser `context` the owner's session of `jar` (a sign-in made with `signIn`), for
 * `siteUrl`: a second sign-in in the same half-minute would reuse its one-time code.
 */
export async function addOwnerCookies(context: BrowserContext, jar: CookieJar, siteUrl: string): Promise<void> {
  await context.addCookies(
    jar
      .header()
      .split("; ")
      .map((pair) => {
        const equals = pair.indexOf("=");
        return { name: pair.slice(0, equals), value: pair.slice(equals + 1), url: siteUrl };
      }),
  );
}

/** Signs `owner` in on `siteUrl` with the mouse, through both steps; ends on the inbox. */
export async function signInWithMouse(page: Page, siteUrl: string, owner: TestOwner): Promise<void> {
  if (!page.url().startsWith(`${siteUrl}/admin/connexion`)) await page.goto(`${siteUrl}/admin/connexion`);
  await page.getByLabel("Adresse e-mail").fill(owner.email);
  await page.getByLabel("Mot de passe").fill(owner.password);
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByLabel("Code de vérification")).toBeVisible();
  await page.getByLabel("Code de vérification").fill(totpCode(owner));
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(`${siteUrl}/admin`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demandes de contact");
}

/**
 * Signs `owner` in on `siteUrl` with the sign-in's own requests (`signIn`: password, then the current
 * code), gives `page`'s browser context that session and opens the inbox; waits for React unless
 * `javaScript` is false. For the tests whose subject is not the sign-in: desk.spec.ts signs in with the
 * mouse, the keyboard and without JavaScript.
 */
export async function openInboxSignedIn(
  page: Page,
  siteUrl: string,
  owner: TestOwner,
  { javaScript = true }: { javaScript?: boolean } = {},
): Promise<void> {
  await addOwnerCookies(page.context(), await signIn(siteUrl, owner), siteUrl);
  await page.goto(`${siteUrl}/admin`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demandes de contact");
  if (javaScript) await waitForHydration(page);
}

/** Runs `click` and resolves with the file the browser downloads: its suggested name and its bytes. */
export async function downloadBy(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
}

/**
 * Creates a course session through the desk's form (`POST /admin/cours`,
 * signed in as `jar`): the security course at 14 h 00, 2 hours, in Vevey,
 * 8 seats, 4 at least, CHF 55.–; `fields` add the date (`YYYY-MM-DD`) and
 * change any of them. Resolves with the new session's id.
 */
export async function createSessionInDesk(
  siteUrl: string,
  jar: CookieJar,
  fields: Record<string, string>,
): Promise<number> {
  const answer = await deskFetch(siteUrl, "/admin/cours", {
    jar,
    form: {
      intent: "create",
      courseId: "securite",
      time: "14:00",
      durationMinutes: "120",
      placeName: "Salle paroissiale",
      placeAddress: "Rue du Lac 1, 1800 Vevey",
      placeAccess: "Rez-de-chaussée, accès sans marche",
      capacity: "8",
      minimum: "4",
      priceChf: "55",
      ...fields,
    },
  });
  expect(answer.status).toBe(303);
  return Number(/(\d+)$/.exec(answer.headers.get("location")!)![1]);
}

/**
 * A browser context signed in as the owner whose cookies `jar` holds (an
 * API sign-in, `signIn` of the harness), for `siteUrl`; `options` as
 * `browser.newContext` takes them (viewport, JavaScript).
 */
export async function ownerBrowserContext(
  browser: Browser,
  siteUrl: string,
  jar: CookieJar,
  options: BrowserContextOptions,
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await addOwnerCookies(context, jar, siteUrl);
  return context;
}

/**
 * A person's card on a session's desk page (app/courses/session-desk/people-list.tsx: each card is the
 * `#personne-{id}` the page's links lead to), for `page.locator(PERSON, { hasText: name })`: the other
 * lists of the page (letters, offers) name the same people.
 */
export const PERSON = 'li[id^="personne-"]';
