/**
 * How a course is paid (issue 33, item 3; decision 035): the owner chooses
 * it per session and per series in the desk (sur place, sur facture, au
 * choix); the booking form asks a postal address only by invoice, and the
 * server (a browser without JavaScript) says what is missing beside the
 * field; the registration keeps how it pays and the address, which the
 * confirmation page, its mail, the desk's invoice and the person's export
 * and erasure follow; every page says it in the same words.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courseBookingInfo } from "../../app/content/courses";
import { INVOICE_RULE, PAYMENT_OVERVIEW } from "../../app/content/payment";
import { bookingMessages } from "../../app/courses/schema";
import { createSession, weeklyDates, zurichToUtc } from "../../app/courses/sessions.server";
import { courseRegistrations, courseSessions, invoices, outbox } from "../../app/db/schema";
import { erasePerson } from "../../app/features.server";
import { PAID_ON_SITE_REFUSAL } from "../../app/invoices/draft-start.server";
import {
  bookingForm,
  createOwner,
  deskFetch,
  pageText,
  postBooking,
  sessionFields,
  signIn,
  startTestServer,
  type CookieJar,
} from "../support/harness";

let site: Awaited<ReturnType<typeof startTestServer>>;
let jar: CookieJar;
let onSite: number;
let byInvoice: number;
/** The first date of a 4-date series « au choix », made by the desk's series form. */
let either: number;

const ADDRESS = { postalStreet: "Rue du Lac 3", postalCode: "1800", postalLocality: "Vevey" };

/** The text a page shows within the element of id `…{field}-error` (the message beside the field). */
function besideField(html: string, field: string): string {
  const at = html.search(new RegExp(`id="[^"]*-${field}-error"`));
  return at < 0 ? "" : pageText(html.slice(at, html.indexOf("</p>", at) + 4));
}

const typeset = (text: string) => pageText(text);

beforeAll(async () => {
  site = await startTestServer({ INVOICE_IBAN: "CH56 0483 5012 3456 7800 9" });
  jar = await signIn(site.url, await createOwner(site.database.db, "payment-owner@example.ch"));
  onSite = await createSession(site.database.db, sessionFields({ startsAt: zurichToUtc("2030-11-05", "14:00") }));
  byInvoice = await createSession(
    site.database.db,
    sessionFields({
      courseId: "intelligence-artificielle",
      startsAt: zurichToUtc("2030-11-06", "14:00"),
      payment: "facture",
    }),
  );
  // The series form of the desk, « Au choix »: every date of the series is paid that way.
  const [first] = weeklyDates("2030-11-07", 1);
  const made = await deskFetch(site.url, "/admin/cours/nouvelle-serie", {
    jar,
    form: {
      intent: "create-series",
      courseId: "applications-mobiles",
      date: first!,
      time: "14:00",
      durationMinutes: "90",
      placeName: "Salle communale",
      placeAddress: "Rue du Lac 1, 1800 Vevey",
      placeAccess: "",
      capacity: "8",
      minimum: "4",
      priceChf: "240",
      payment: "au-choix",
      repeat: "weekly",
      count: "4",
    },
  });
  expect(made.status).toBe(303);
  either = Number(made.headers.get("location")!.split("/").at(-1));
}, 120_000);
afterAll(async () => site?.close());

const coursePage = (slug: string) => fetch(`${site.url}/cours/${slug}`).then((res) => res.text());

describe("the owner's choice", () => {
  it("is the same on every date of a series, made and edited in the desk", async () => {
    const [anchor] = await site.database.db.select().from(courseSessions).where(eq(courseSessions.id, either));
    const dates = await site.database.db
      .select({ id: courseSessions.id, payment: courseSessions.payment })
      .from(courseSessions)
      .where(eq(courseSessions.seriesId, anchor!.seriesId!));
    expect(dates.map((date) => date.payment)).toEqual(["au-choix", "au-choix", "au-choix", "au-choix"]);
    // The desk's form of date 3 shows the choice; changing it there changes the series, and back.
    const third = dates[2]!.id;
    const page = await (await deskFetch(site.url, `/admin/cours/${third}`, { jar })).text();
    const checked = [...page.matchAll(/<input[^>]*name="payment"[^>]*>/g)].filter((tag) => /checked/.test(tag[0]));
    expect(checked.map((tag) => /value="([^"]*)"/.exec(tag[0])?.[1])).toEqual(["au-choix"]);
    const values = Object.fromEntries(
      [
        ...page.matchAll(
          /<input[^>]*name="(date|time|durationMinutes|placeName|placeAddress|capacity|minimum|priceChf)"[^>]*value="([^"]*)"/g,
        ),
      ].map((match) => [match[1]!, match[2]!]),
    );
    for (const payment of ["facture", "au-choix"]) {
      const edited = await deskFetch(site.url, `/admin/cours/${third}`, {
        jar,
        form: { intent: "edit", courseId: "applications-mobiles", placeAccess: "", ...values, payment },
      });
      expect(edited.status).toBe(200);
      const after = await site.database.db
        .select({ payment: courseSessions.payment })
        .from(courseSessions)
        .where(eq(courseSessions.seriesId, anchor!.seriesId!));
      expect(after.map((date) => date.payment)).toEqual([payment, payment, payment, payment]);
    }
  });
});

describe("the booking form", () => {
  it("asks no address for a course paid on site, the address for one paid by invoice, the choice « au choix »", async () => {
    const plain = await coursePage("securite");
    expect(pageText(plain)).toContain(typeset(courseBookingInfo.payment["sur-place"]));
    expect(plain).not.toContain('name="postalStreet"');
    expect(plain).not.toContain('name="paysBy"');

    const invoice = await coursePage("intelligence-artificielle");
    expect(pageText(invoice)).toContain(typeset(courseBookingInfo.payment.facture));
    expect(invoice).toMatch(/<input type="hidden" name="paysBy" value="facture"/);
    for (const name of ["postalStreet", "postalCode", "postalLocality"]) expect(invoice).toContain(`name="${name}"`);
    // No choice to make: the address is always shown.
    expect(invoice).not.toContain("pays-by-choice");

    const choice = await coursePage("applications-mobiles");
    expect(pageText(choice)).toContain(typeset(courseBookingInfo.payment["au-choix"]));
    expect(choice).toMatch(
      /<input[^>]*type="radio"[^>]*name="paysBy"[^>]*value="sur-place"|<input[^>]*name="paysBy"[^>]*type="radio"[^>]*value="sur-place"/,
    );
    expect(choice).toMatch(/name="paysBy"[^>]*value="facture"/);
    // The address sits in the part the stylesheet hides until « Sur facture » is checked (no JavaScript needed).
    expect(choice).toMatch(/pays-by-choice[\s\S]*invoice-address[\s\S]*name="postalStreet"/);
    const css = await fetch(`${site.url}${/href="(\/assets\/[^"]+\.css)"/.exec(choice)![1]}`).then((res) => res.text());
    expect(css).toMatch(
      /\.pays-by-choice:not\(:has\([^{]*facture[^{]*:checked\)\)\s*\.invoice-address\{display:none\}/,
    );
  });

  it("without JavaScript, says beside each field what is missing", async () => {
    const noChoice = await postBooking(site.url, "applications-mobiles", bookingForm(either, 1));
    expect(noChoice.status).toBe(400);
    expect(besideField(await noChoice.text(), "paysBy")).toContain(typeset(bookingMessages.paysBy));

    const noAddress = await postBooking(
      site.url,
      "applications-mobiles",
      bookingForm(either, 2, { paysBy: "facture" }),
    );
    expect(noAddress.status).toBe(400);
    const html = await noAddress.text();
    expect(besideField(html, "postalStreet")).toContain(typeset(bookingMessages.postalStreet));
    expect(besideField(html, "postalCode")).toContain(typeset(bookingMessages.postalCode));
    expect(besideField(html, "postalLocality")).toContain(typeset(bookingMessages.postalLocality));

    const badCode = await postBooking(
      site.url,
      "intelligence-artificielle",
      bookingForm(byInvoice, 3, { paysBy: "facture", ...ADDRESS, postalCode: "180" }),
    );
    expect(badCode.status).toBe(400);
    expect(besideField(await badCode.text(), "postalCode")).toContain(typeset(bookingMessages.postalCodeFormat));

    // A post that leaves out the hidden « facture » of a course paid by invoice still needs the address.
    const crafted = await postBooking(site.url, "intelligence-artificielle", bookingForm(byInvoice, 4));
    expect(crafted.status).toBe(400);
    expect(besideField(await crafted.text(), "postalStreet")).toContain(typeset(bookingMessages.postalStreet));
    expect(await site.database.db.select().from(courseRegistrations)).toEqual([]);
  });
});

/** Books `sessionId` on course `slug`; the registration's row and its confirmation page's text. */
async function book(slug: string, sessionId: number, n: number, extra: Record<string, string> = {}) {
  const answer = await postBooking(site.url, slug, bookingForm(sessionId, n, extra));
  expect(answer.status).toBe(303);
  const page = pageText(await fetch(`${site.url}${answer.headers.get("location")}`).then((res) => res.text()));
  const [row] = await site.database.db
    .select()
    .from(courseRegistrations)
    .where(eq(courseRegistrations.email, `marie${n}@example.ch`));
  const [mail] = await site.database.db
    .select()
    .from(outbox)
    .where(eq(outbox.recipient, `marie${n}@example.ch`));
  return { row: row!, page, mail: pageText(mail!.textBody!) };
}

describe("a registration", () => {
  it("keeps how it pays; its page and mail say it in the words of the course page, /questions and /confiance", async () => {
    const paid = await book("securite", onSite, 10, ADDRESS);
    expect(paid.row).toMatchObject({ paysBy: "sur-place", postalStreet: null, postalCode: null, postalLocality: null });
    const invoiced = await book("applications-mobiles", either, 11, { paysBy: "facture", ...ADDRESS });
    expect(invoiced.row).toMatchObject({ paysBy: "facture", ...ADDRESS });

    for (const [{ page, mail }, way] of [
      [paid, "sur-place"],
      [invoiced, "facture"],
    ] as const) {
      expect(page).toContain(typeset(courseBookingInfo.payment[way]));
      expect(mail).toContain(typeset(courseBookingInfo.payment[way]));
      expect(page).toContain(typeset(INVOICE_RULE));
      expect(mail).toContain(typeset(INVOICE_RULE));
    }
    expect(invoiced.page).toContain("Adresse de la facture : Rue du Lac 3, 1800 Vevey");
    expect(invoiced.mail).toContain("Adresse de la facture : Rue du Lac 3, 1800 Vevey");
    expect(paid.page).not.toContain("Adresse de la facture");
    expect(paid.mail).not.toContain("facture : Rue");
    for (const path of ["/questions", "/confiance"]) {
      const text = pageText(await fetch(`${site.url}${path}`).then((res) => res.text()));
      expect(text).toContain(typeset(PAYMENT_OVERVIEW));
      expect(text).toContain(typeset(INVOICE_RULE));
    }
  });

  it("paid on site gets no invoice from the desk, on the page or by a post; paid by invoice, it goes to the address given", async () => {
    const [paid] = await site.database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.paysBy, "sur-place"));
    const [invoiced] = await site.database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.paysBy, "facture"));

    const refused = await (
      await deskFetch(site.url, `/admin/factures/nouvelle?inscription=${paid!.id}`, { jar })
    ).text();
    expect(pageText(refused)).toContain(typeset(PAID_ON_SITE_REFUSAL));
    expect(refused).not.toContain('name="label-0"');
    const posted = await deskFetch(site.url, "/admin/factures/nouvelle", {
      jar,
      form: {
        registrationId: String(paid!.id),
        clientKind: "person",
        clientName: "Marie Dupont 10",
        street: "Rue du Lac",
        buildingNumber: "3",
        postalCode: "1800",
        locality: "Vevey",
        country: "CH",
        "label-0": "Cours",
        "quantity-0": "1",
        "price-0": "55",
        issuedOn: "2030-11-01",
        dueOn: "2030-12-01",
      },
    });
    expect(posted.status).toBe(409);
    expect(pageText(await posted.text())).toContain(typeset(PAID_ON_SITE_REFUSAL));
    expect(await site.database.db.select().from(invoices)).toEqual([]);
    // The desk's list offers « Faire une facture » only to whom pays by invoice.
    const desk = await (await deskFetch(site.url, `/admin/cours/${onSite}`, { jar })).text();
    expect(desk).not.toContain(`inscription=${paid!.id}"`);
    expect(pageText(desk)).toContain("Paiement : Sur place");

    const start = await (
      await deskFetch(site.url, `/admin/factures/nouvelle?inscription=${invoiced!.id}`, { jar })
    ).text();
    const value = (name: string) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(start)?.[1];
    expect([
      value("clientName"),
      value("street"),
      value("buildingNumber"),
      value("postalCode"),
      value("locality"),
    ]).toEqual(["Marie Dupont 11", "Rue du Lac", "3", "1800", "Vevey"]);
  });

  it("is in the person's export with its address, and the erasure takes the address away", async () => {
    const exported = await deskFetch(site.url, "/admin/personne.json?email=marie11%40example.ch", { jar });
    expect(exported.status).toBe(200);
    const text = await exported.text();
    expect(text).toContain("Sur facture");
    expect(text).toContain("Rue du Lac 3, 1800 Vevey");

    await erasePerson(site.database.db, { email: "marie11@example.ch", phoneE164: null }, null, "owner", {
      siteUrl: site.url,
    });
    expect(
      await site.database.db
        .select({ id: courseRegistrations.id })
        .from(courseRegistrations)
        .where(eq(courseRegistrations.postalStreet, ADDRESS.postalStreet)),
    ).toEqual([]);
  });
});
