/**
 * Invoices as the site promises them (issue 33, item 3): the invoice
 * started from a registration for a 4-date series (booked « sur facture »)
 * has one line, « 4
 * séances : » and each date, at the series' price (not the first date
 * alone); its mail carries the registration's code word; `/confiance`,
 * `/questions` and the confirmation page say when an invoice comes, in the
 * same words.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVOICE_RULE } from "../../app/content/payment";
import { courseRegistrations, outbox } from "../../app/db/schema";
import { registerForSession } from "../../app/courses/booking.server";
import { createSeries, createSession, weeklyDates, zurichToUtc } from "../../app/courses/sessions.server";
import {
  createOwner,
  deskFetch,
  pageText,
  sessionFields,
  signIn,
  startTestServer,
  type CookieJar,
} from "../support/harness";

let site: Awaited<ReturnType<typeof startTestServer>>;
let jar: CookieJar;

beforeAll(async () => {
  site = await startTestServer({ INVOICE_IBAN: "CH56 0483 5012 3456 7800 9" });
  jar = await signIn(site.url, await createOwner(site.database.db, "series-invoice@example.ch"));
}, 120_000);
afterAll(async () => site?.close());

describe("the invoice of a series registration", () => {
  it("names its 4 dates on one line at the series' price", async () => {
    const { sessionIds } = await createSeries(
      site.database.db,
      sessionFields({ courseId: "applications-mobiles", durationMinutes: 90, priceChf: 240, payment: "facture" }),
      weeklyDates("2030-10-15", 4).map((day) => zurichToUtc(day, "14:00")),
    );
    const booked = await registerForSession(
      site.database.db,
      {
        sessionId: sessionIds[0]!,
        firstName: "Rose",
        lastName: "Série",
        phone: "079 555 66 01",
        email: "",
        seats: "1",
        paysBy: "facture",
        postalStreet: "Rue du Lac 12",
        postalCode: "1800",
        postalLocality: "Vevey",
      },
      { siteUrl: site.url },
    );
    if (booked.outcome !== "confirmed") throw new Error(`registration: ${booked.outcome}`);
    const html = await (
      await deskFetch(site.url, `/admin/factures/nouvelle?inscription=${booked.registrationId}`, { jar })
    ).text();
    const label = /name="label-0"[^>]*value="([^"]*)"/.exec(html)?.[1]?.replace(/[\u00a0\u202f\u2060]/g, " ");
    expect(label).toBe(
      "Cours « Applications mobiles », 4 séances : 15 octobre 2030, 22 octobre 2030, 29 octobre 2030 et 5 novembre 2030",
    );
    expect(html).toMatch(/name="price-0"[^>]*value="240"/);

    // Made and sent: its mail names the registration's code word.
    const created = await deskFetch(site.url, "/admin/factures/nouvelle", {
      jar,
      form: {
        registrationId: String(booked.registrationId),
        clientKind: "person",
        clientName: "Rose Série",
        street: "Rue du Lac",
        buildingNumber: "12",
        postalCode: "1800",
        locality: "Vevey",
        country: "CH",
        email: "rose.serie@example.ch",
        phone: "079 555 66 01",
        "label-0": label!,
        "quantity-0": "1",
        "price-0": "240",
        issuedOn: /name="issuedOn"[^>]*value="([^"]*)"/.exec(html)![1]!,
        dueOn: /name="dueOn"[^>]*value="([^"]*)"/.exec(html)![1]!,
      },
    });
    expect(created.status).toBe(303);
    const sent = await deskFetch(site.url, created.headers.get("location")!, { jar, form: { intent: "send" } });
    expect(sent.status).toBe(200);
    const [registration] = await site.database.db
      .select({ codeWord: courseRegistrations.codeWord })
      .from(courseRegistrations)
      .where(eq(courseRegistrations.id, booked.registrationId));
    const [mail] = await site.database.db.select().from(outbox).where(eq(outbox.recipient, "rose.serie@example.ch"));
    expect(registration!.codeWord).toBeTruthy();
    expect(mail!.textBody).toContain(`Votre mot de code : « ${registration!.codeWord} ».`);
  });

  it("says when an invoice comes in the same words on /confiance, /questions and the confirmation mail", async () => {
    const rule = pageText(INVOICE_RULE);
    for (const path of ["/confiance", "/questions"]) {
      expect(pageText(await fetch(`${site.url}${path}`).then((res) => res.text()))).toContain(rule);
    }
    const sessionId = await createSession(
      site.database.db,
      sessionFields({ startsAt: zurichToUtc("2030-11-12", "14:00") }),
    );
    const booked = await registerForSession(
      site.database.db,
      {
        sessionId,
        firstName: "Lucie",
        lastName: "Mail",
        phone: "079 555 66 02",
        email: "lucie@example.ch",
        seats: "1",
      },
      { siteUrl: site.url },
    );
    expect(booked.outcome).toBe("confirmed");
    const [confirmation] = await site.database.db.select().from(outbox).where(eq(outbox.recipient, "lucie@example.ch"));
    expect(pageText(confirmation!.textBody!)).toContain(rule);
    // The promise no longer says only « sur place »: an invoice is named, with how to recognise it.
    expect(pageText(await fetch(`${site.url}/confiance`).then((res) => res.text()))).toContain(
      "avec le mot de code que je vous ai donné",
    );
  });
});
