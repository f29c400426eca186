/**
 * Issue 32, item 3, through the running site as the owner's browser uses
 * it (one site for the file):
 * - « Protection des données » (`/admin/donnees`), its CSV and its PDF list
 *   every processing of the register and every table of the person
 *   registry; the public privacy notice lists each processing with the
 *   same title and retention as the register;
 * - the breach log: bad input gets the French message beside the field
 *   (400) and writes nothing; a breach is recorded and changed with one
 *   audit line each (its id only), and the retention job keeps it;
 * - a visitor (no session, or a session used from another origin) reaches
 *   none of it, by page, `.data`, trailing slash or capitals, and writes
 *   nothing.
 */
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, dataBreaches } from "../../app/db/schema";
import { tableKey } from "../../app/desk/person-registry.server";
import { PERSON_TABLES, PROCESSINGS, runRetention } from "../../app/features.server";
import { registerOf } from "../../app/privacy/register.server";
import { defaultSettings } from "../../app/settings/site.server";
import { createOwner, deskFetch, pageText, signIn, startTestServer, type CookieJar } from "../support/harness";

const standardFontDataUrl = fileURLToPath(new URL("../../node_modules/pdfjs-dist/standard_fonts/", import.meta.url));

let site: Awaited<ReturnType<typeof startTestServer>>;
let jar: CookieJar;
let owner: Awaited<ReturnType<typeof createOwner>>;
/** The register as the site's default Réglages make it. */
const { rows } = registerOf(PROCESSINGS, defaultSettings());
const tables = PERSON_TABLES.map(tableKey);

/** A complete breach form, with `overrides`. */
const breachForm = (overrides: Record<string, string> = {}) => ({
  discoveredOn: "2026-11-20",
  occurredOn: "18.11.2026",
  whatHappened: "Ordinateur portable volé dans le train, disque non chiffré.",
  dataConcerned: "Noms et numéros de téléphone",
  peopleConcerned: "Participants aux cours de novembre",
  peopleCount: "14",
  risk: "eleve",
  riskAssessment: "Risque d’appels frauduleux.",
  measures: "Mots de passe changés, plainte déposée.",
  fdpicToldOn: "",
  peopleToldOn: "",
  ...overrides,
});

/** The text of every page of a PDF. */
async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), standardFontDataUrl }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= doc.numPages; number++) {
    const content = await (await doc.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await doc.destroy();
  return pages.join(" ").replace(/\s+/g, " ");
}

const breachRows = () => site.database.db.select().from(dataBreaches);
const auditOf = (action: "breach-recorded" | "breach-updated") =>
  site.database.db.select().from(auditLog).where(eq(auditLog.action, action));

beforeAll(async () => {
  site = await startTestServer({});
  owner = await createOwner(site.database.db);
  jar = await signIn(site.url, owner);
}, 120_000);

afterAll(async () => {
  await site?.close();
});

describe("the register", () => {
  it("shows every processing and every table of the person registry, with the periods of Réglages", async () => {
    const answer = await deskFetch(site.url, "/admin/donnees", { jar });
    expect(answer.status).toBe(200);
    const text = pageText(await answer.text());
    for (const row of rows) {
      expect(text).toContain(row.title);
      expect(text).toContain(pageText(row.retention));
    }
    for (const table of [...tables, "data_breaches"]) expect(text).toContain(table);
  });

  it("downloads as a CSV with a line per processing, listing every table", async () => {
    const answer = await deskFetch(site.url, "/admin/donnees.csv", { jar });
    expect(answer.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(answer.headers.get("content-disposition")).toMatch(/registre-traitements-\d{4}-\d{2}-\d{2}\.csv/);
    const lines = parse((await answer.text()).replace(/^\uFEFF/, ""), { delimiter: ";", columns: true }) as Record<
      string,
      string
    >[];
    expect(lines.map((line) => line["Traitement"])).toEqual(rows.map((row) => row.title));
    const listed = lines.flatMap((line) => line["Tables de la base"]!.split(" ; "));
    for (const table of tables) expect(listed).toContain(table);
  });

  it("downloads as a PDF that names every processing and every table", async () => {
    const answer = await deskFetch(site.url, "/admin/donnees.pdf", { jar });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/pdf");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const text = await pdfText(await answer.arrayBuffer());
    expect(text).toContain("Registre des activités de traitement");
    for (const row of rows) expect(text, row.key).toContain(row.title);
    for (const table of [...tables, "data_breaches"]) expect(text, table).toContain(table);
  });

  it("and the public privacy notice list the same processings with the same retention", async () => {
    const text = pageText(await (await fetch(`${site.url}/confidentialite`)).text());
    expect(text).toContain("Chaque traitement en bref");
    for (const row of rows) {
      expect(text, row.key).toContain(`${row.title} :`);
      expect(text.toLowerCase(), row.key).toContain(pageText(row.retention).toLowerCase());
    }
  });
});

describe("the breach log", () => {
  let id: number;

  it("refuses a form with mistakes, each French message beside its field, writing nothing", async () => {
    const answer = await deskFetch(site.url, "/admin/donnees/violations/nouvelle", {
      jar,
      form: breachForm({ discoveredOn: "", whatHappened: "", occurredOn: "2026-11-25", risk: "", peopleCount: "dix" }),
    });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    // Each message in the error line under its field (`breach-{name}-error`, the field's aria-describedby).
    const messageOf = (name: string) =>
      pageText(new RegExp(`<p id="breach-${name}-error"[^>]*>([\\s\\S]*?)</p>`).exec(html)?.[1] ?? "").trim();
    expect(messageOf("discoveredOn")).toContain("Indiquez le jour où vous l’avez découverte");
    expect(messageOf("whatHappened")).toBe("Décrivez ce qui s’est passé.");
    expect(messageOf("risk")).toBe("Choisissez si le risque est élevé ou non.");
    expect(messageOf("peopleCount")).toBe("Écrivez un nombre entier, ou laissez vide.");
    expect(html).toMatch(/id="breach-whatHappened"[^>]*aria-invalid="true"/);
    expect(await breachRows()).toEqual([]);

    const order = await deskFetch(site.url, "/admin/donnees/violations/nouvelle", {
      jar,
      form: breachForm({ occurredOn: "2026-11-21", fdpicToldOn: "2026-11-19" }),
    });
    expect(order.status).toBe(400);
    const orderHtml = await order.text();
    expect(orderHtml).toContain("Une violation ne peut pas avoir eu lieu après sa découverte.");
    expect(orderHtml).toContain("L’annonce ne peut pas précéder la découverte.");
    expect(await breachRows()).toEqual([]);
  });

  it("records a breach with one audit line holding its id only, and lists it as still to announce", async () => {
    const answer = await deskFetch(site.url, "/admin/donnees/violations/nouvelle", { jar, form: breachForm() });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/admin/donnees/violations");
    const [row] = await breachRows();
    id = row!.id;
    expect(row).toMatchObject({
      discoveredOn: "2026-11-20",
      occurredOn: "2026-11-18",
      peopleCount: 14,
      highRisk: true,
      fdpicToldOn: null,
      peopleToldOn: null,
    });
    const audits = await auditOf("breach-recorded");
    expect(audits.map((line) => line.details)).toEqual([{ breach: id }]);
    expect(audits[0]!.actor).toBeTruthy();
    const list = pageText(await (await deskFetch(site.url, "/admin/donnees/violations", { jar })).text());
    expect(list).toContain("Découverte le 20 novembre 2026");
    expect(list).toContain("Risque élevé, pas encore annoncée au PFPDT.");
    expect(list).toContain("le formulaire d’annonce en ligne du PFPDT");
  });

  it("changes it with its own audit line, and the retention job keeps it", async () => {
    const page = await (await deskFetch(site.url, `/admin/donnees/violations/${id}`, { jar })).text();
    expect(page).toContain("Ordinateur portable volé");
    const answer = await deskFetch(site.url, `/admin/donnees/violations/${id}`, {
      jar,
      form: breachForm({ fdpicToldOn: "2026-11-21", peopleToldOn: "22.11.2026" }),
    });
    expect(answer.status).toBe(303);
    const [row] = await breachRows();
    expect(row).toMatchObject({ id, fdpicToldOn: "2026-11-21", peopleToldOn: "2026-11-22" });
    expect((await auditOf("breach-updated")).map((line) => line.details)).toEqual([{ breach: id }]);
    const list = pageText(await (await deskFetch(site.url, "/admin/donnees/violations", { jar })).text());
    expect(list).toContain("PFPDT : annoncée le 21 novembre 2026");
    expect(list).not.toContain("pas encore annoncée");

    await runRetention(site.database.db, new Date("2040-01-01T00:00:00Z"), {
      retentionMonths: 1,
      sentNotificationDays: 1,
    });
    expect((await breachRows()).map((breach) => breach.id)).toEqual([id]);
    // The run in 2040 ended the owner's session too.
    jar = await signIn(site.url, owner);
  });

  it("answers 404 for a breach that does not exist", async () => {
    expect((await deskFetch(site.url, "/admin/donnees/violations/999999", { jar })).status).toBe(404);
    const post = await deskFetch(site.url, "/admin/donnees/violations/999999", { jar, form: breachForm() });
    expect(post.status).toBe(404);
    expect(await breachRows()).toHaveLength(1);
  });
});

describe("a visitor", () => {
  const pages = [
    "/admin/donnees",
    "/admin/donnees/",
    "/ADMIN/DONNEES",
    "/admin/donnees.csv",
    "/admin/donnees.pdf",
    "/admin/donnees/violations",
    "/admin/donnees/violations/nouvelle",
    "/admin/donnees/violations/1",
  ];

  it("without a session gets the sign-in page or 401 for every page and data request", async () => {
    for (const path of pages) {
      const answer = await deskFetch(site.url, path);
      expect(answer.status, path).toBe(303);
      expect(answer.headers.get("location"), path).toBe("/admin/connexion");
    }
    for (const path of ["/admin/donnees.data", "/admin/donnees/violations.data", "/admin/donnees/violations/1.data"])
      expect((await deskFetch(site.url, path)).status, path).toBe(401);
  });

  it("records and changes nothing, by any spelling, without a session or from another origin", async () => {
    const before = await breachRows();
    const form = breachForm({ whatHappened: "Écrit par un intrus" });
    for (const path of [
      "/admin/donnees/violations/nouvelle",
      "/admin/donnees/violations/nouvelle/",
      "/Admin/Donnees/Violations/Nouvelle",
      "/admin/donnees/violations/nouvelle.data",
      `/admin/donnees/violations/${before[0]!.id}`,
      `/admin/donnees/violations/${before[0]!.id}.data`,
    ]) {
      const anonymous = await deskFetch(site.url, path, { form });
      if (path.endsWith(".data")) expect(anonymous.status, path).toBe(401);
      else expect(anonymous.headers.get("location"), path).toBe("/admin/connexion");
      const elsewhere = await deskFetch(site.url, path, { jar, form, headers: { Origin: "https://intrus.example" } });
      // The guard's 403, or React Router's own 400 to a POST whose Origin names another host.
      expect([400, 403], path).toContain(elsewhere.status);
    }
    expect(await breachRows()).toEqual(before);
    expect(await auditOf("breach-recorded")).toHaveLength(1);
  });
});
