/**
 * A series is invoiced with its dates (issue 33, item 3): the invoice
 * started from a registration for a 4-date series has one line, « 4
 * séances : » and each date, at the series' price; not the first date alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerForSession } from "../../app/courses/booking.server";
import { createSeries, weeklyDates, zurichToUtc } from "../../app/courses/sessions.server";
import { createOwner, deskFetch, sessionFields, signIn, startTestServer, type CookieJar } from "../support/harness";

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
      sessionFields({ courseId: "applications-mobiles", durationMinutes: 90, priceChf: 240 }),
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
  });
});
