/**
 * Large text (issue 33, item 7; WCAG 1.4.4 Resize text and 1.4.10 Reflow): with the browser's text
 * size at 200 % (Chromium's default font size 32 px instead of 16, what Chrome's « Taille de la
 * police » and Firefox's text-only zoom change, set here through the DevTools protocol's
 * `Page.setFontSizes`), on a 320 and a 375 px phone, every page of `/sitemap.xml` (and the three
 * pages it leaves out: legal notice, privacy, contact details) and the desk's main
 * pages (sign-in, inbox, courses and a session with a registration, Réglages, articles, pictures,
 * invoices and an invoice) reflow: the document is no wider than the screen, and no element reaches
 * past its right or left edge unless it is inside a box that scrolls by itself (a table). The
 * preference, not a `font-size` on `<html>`: it is what seniors change, and it also moves the
 * media queries written in `rem` (Tailwind's breakpoints), which a style on `<html>` does not.
 * At both widths the open menu holds « Appeler » (out of the bar at that size) and scrolls to it.
 * One test per width walking every page in one browser page; a site of its own for the desk.
 * Screenshots: `screenshots/home-375-text-200.png` and `-menu.png` (committed).
 */
import { expect, test, type Page } from "@playwright/test";
import { deskFetch, NOINDEX_PAGES, signIn, type CookieJar } from "../support/harness";
import { addOwnerCookies, createSessionInDesk, setUpOwnSite } from "./desk-helpers";
import { photograph, waitForHydration } from "./helpers";

test.describe.configure({ mode: "default" });
test.use({ isMobile: true, hasTouch: true, deviceScaleFactor: 1 });

const own = setUpOwnSite({ owner: "grand-texte@example.ch" }, () => ({ INVOICE_IBAN: "CH56 0483 5012 3456 7800 9" }));

/** The desk's pages to walk, once signed in (filled in before the first test). */
const deskPaths: string[] = [];
let jar: CookieJar;

test.beforeAll(async () => {
  jar = await signIn(own.site.url, own.owners.owner);
  const sessionId = await createSessionInDesk(own.site.url, jar, { date: "2030-03-12" });
  const registered = await deskFetch(own.site.url, `/admin/cours/${sessionId}`, {
    jar,
    form: {
      intent: "register",
      sessionId: String(sessionId),
      firstName: "Marie-Antoinette",
      lastName: "Vuilleumier-Beausire",
      phone: "079 555 66 77",
      email: "marie-antoinette.vuilleumier-beausire@example.ch",
      seats: "1",
    },
  });
  expect(registered.status).toBe(200);
  const invoice = await deskFetch(own.site.url, "/admin/factures/nouvelle", {
    jar,
    form: {
      clientKind: "person",
      clientName: "Marie-Antoinette Vuilleumier-Beausire",
      street: "Chemin des Vignes",
      buildingNumber: "4",
      postalCode: "1814",
      locality: "La Tour-de-Peilz",
      country: "CH",
      "label-1": "Cours « Sécurité sur internet », mardi 12 mars 2030, 14 h 00",
      "quantity-1": "1",
      "price-1": "55",
      issuedOn: "2030-03-01",
      dueOn: "2030-03-31",
    },
  });
  expect(invoice.status).toBe(303);
  deskPaths.push(
    "/admin",
    "/admin/cours",
    `/admin/cours/${sessionId}`,
    "/admin/cours/nouvelle-serie",
    "/admin/reglages",
    "/admin/articles",
    "/admin/images",
    "/admin/lettres",
    "/admin/factures",
    "/admin/factures/nouvelle",
    invoice.headers.get("location")!,
  );
});

/** The browser's default font size, in CSS pixels: 200 % of Chromium's 16. */
const LARGE_TEXT_PX = 32;

/** Sets the browser's text size preference of `page` (standard and monospace fonts) to 200 %. */
async function setLargeText(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Page.setFontSizes", { fontSizes: { standard: LARGE_TEXT_PX, fixed: 26 } });
}

/**
 * What reaches past the screen's edges on the page as it stands: the document's width if wider, and
 * each visible element whose box ends right of the screen (or starts left of it) outside any box that
 * scrolls by itself (`overflow-x: auto` or `scroll`), as `tag.class "text…" left–right`, named where
 * the overflow starts (not its children again). Boxes of 1 px or less, clipped ones and what a 1 px
 * box clips (`sr-only`, the skip link until focused) are left out.
 */
function overflowsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width)
      found.push(`the document is ${document.documentElement.scrollWidth} px wide for ${width} px`);
    const past = new Set<Element>();
    for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
      const rect = element.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1) continue;
      if (rect.right <= width + 0.5 && rect.left >= -0.5) continue;
      const style = getComputedStyle(element);
      if (style.visibility === "hidden" || style.clipPath !== "none") continue;
      let inside = false;
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        const overflow = getComputedStyle(box).overflowX;
        if (overflow === "auto" || overflow === "scroll" || (overflow !== "visible" && box.clientWidth <= 1)) {
          inside = true;
          break;
        }
      }
      if (inside) continue;
      past.add(element);
      // Named once, where it starts: its parent stays within the screen.
      if (element.parentElement && past.has(element.parentElement)) continue;
      const classes = typeof element.className === "string" ? element.className.slice(0, 60) : "";
      const text = (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 30);
      found.push(
        `${element.tagName.toLowerCase()}.${classes} "${text}" ${Math.round(rect.left)}–${Math.round(rect.right)}`,
      );
    }
    return found;
  });
}

/** The paths of `/sitemap.xml` on the test's site. */
async function sitemapPaths(page: Page): Promise<string[]> {
  const xml = await (await page.request.get(`${own.site.url}/sitemap.xml`)).text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
}

for (const width of [320, 375]) {
  test(`at ${width} px with text at 200 %, every public page and the desk's main pages reflow without sideways scrolling`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: width === 320 ? 640 : 740 });
    await setLargeText(page);
    const publicPaths = await sitemapPaths(page);
    expect(publicPaths.length, "the sitemap lists the site's pages").toBeGreaterThan(10);

    const overflows: Record<string, string[]> = {};
    const visit = async (path: string) => {
      const answer = await page.goto(`${own.site.url}${path}`);
      expect(answer?.status(), path).toBe(200);
      const found = await overflowsOf(page);
      if (found.length > 0) overflows[path] = found;
    };
    for (const path of [...publicPaths, ...NOINDEX_PAGES, "/admin/connexion"]) await visit(path);
    // The preference took: the root font is 32 px, and the rem breakpoints followed it.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe(`${LARGE_TEXT_PX}px`);
    expect(await page.evaluate(() => matchMedia("(max-width: 12rem)").matches)).toBe(true);

    await addOwnerCookies(page.context(), jar, own.site.url);
    for (const path of deskPaths) await visit(path);
    expect(overflows).toEqual({});

    // The menu, open, holds "Appeler" (out of the bar at this size) and scrolls to its last entry.
    await page.goto(`${own.site.url}/`);
    await waitForHydration(page);
    if (width === 375) await photograph(page, "screenshots/home-375-text-200.png", { always: true });
    await page.getByRole("button", { name: "Menu" }).click();
    const call = page.locator("#menu-mobile").getByRole("button", { name: "Appeler" });
    await expect(call).toBeVisible();
    await call.scrollIntoViewIfNeeded();
    await expect(call).toBeInViewport();
    expect(await overflowsOf(page)).toEqual([]);
    if (width === 375) await photograph(page, "screenshots/home-375-text-200-menu.png", { always: true });
    await call.click();
    await expect(page.locator("#telephone-entete").getByRole("link")).toBeFocused();
  });
}
