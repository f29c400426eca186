/**
 * The person registry covers the schema: every table of app/db/schema.ts
 * is either searched and erased by person or listed as holding no
 * personal data, so a new table with a visitor's data cannot be forgotten
 * by the export and the erasure. Counts read as French.
 */
import { getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import * as schema from "~/db/schema";
import {
  describeCounts,
  PERSON_TABLES,
  personKeyOf,
  personSearch,
  TABLES_WITHOUT_PERSONAL_DATA,
} from "./person.server";

const schemaTables = Object.values(schema)
  .filter((value) => is(value, PgTable))
  .map((table) => getTableName(table))
  .sort();

describe("the person registry", () => {
  it("classifies every table of the schema exactly once", () => {
    const registered = PERSON_TABLES.map((entry) => getTableName(entry.table));
    const without = Object.keys(TABLES_WITHOUT_PERSONAL_DATA);
    expect(schemaTables.length).toBeGreaterThan(5);
    expect([...registered, ...without].sort()).toEqual(schemaTables);
    expect(registered.filter((name) => without.includes(name))).toEqual([]);
  });
  it("finds contact requests, their status history, subscriptions, course registrations, invoices, mails and mail counts", () => {
    expect(PERSON_TABLES.map((entry) => getTableName(entry.table))).toEqual([
      "contacts",
      "contact_events",
      "newsletter_subscribers",
      "course_registrations",
      "invoices",
      "outbox",
      "recipient_mail_days",
    ]);
  });
});

describe("describeCounts", () => {
  it("writes the counts as a French list, singular for 0 and 1", () => {
    expect(describeCounts({ contacts: 2, contact_events: 1, outbox: 3 })).toBe(
      "2 demandes de contact, 1 changement de statut et 3 e-mails",
    );
    expect(describeCounts({ contacts: 0, outbox: 1 })).toBe("0 demande de contact et 1 e-mail");
  });
});

describe("personKeyOf", () => {
  const query = (fields: Record<string, string>) => personKeyOf(new URLSearchParams(fields));
  it("lower-cases the e-mail and reads the telephone as a Swiss number", () => {
    expect(query({ email: "  Marie.Dupont@Example.CH ", telephone: "079 123 45 67" }).person).toEqual({
      email: "marie.dupont@example.ch",
      phoneE164: "+41791234567",
    });
    expect(query({ telephone: "+41 79 123 45 67" }).person).toEqual({ email: null, phoneE164: "+41791234567" });
  });
  it("names what is wrong, in French, and searches nothing", () => {
    const wrong = query({ email: "marie", telephone: "abc" });
    expect(wrong.person).toBeNull();
    expect(wrong.errors.email).toMatch(/adresse e-mail n’est pas complète/);
    expect(wrong.errors.telephone).toMatch(/numéro de téléphone n’est pas lisible/);
  });
  it("searches nothing without a field, and says nothing is wrong", () => {
    expect(query({})).toMatchObject({ person: null, errors: {} });
  });
  it("gives back what was typed as a query string", () => {
    expect(personSearch(query({ email: "a+b@example.ch", telephone: "079 123 45 67" }))).toBe(
      "email=a%2Bb%40example.ch&telephone=079+123+45+67",
    );
  });
});
