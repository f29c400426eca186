/**
 * The desk's quote form, read (`readQuoteForm(form)`, Conform's
 * `parseWithZod` with zod schemas): the organisation, its address, e-mail
 * and telephone, the lines and the two dates are the invoice form's fields
 * (app/invoices/form.server.ts, `draftFormSchema`; `dueOn` is the validity
 * date), plus the group and its planned session: `groupSize` (1 to 300,
 * optional), `courseId` (a course of the catalogue), `sessionDate` (ISO or
 * Swiss), `sessionTime` ("14:00", Swiss time), `durationMinutes` (15 to
 * 720), `placeName`, `placeAddress`. Never throws: bad input gives each
 * field's French message.
 */
import { z } from "zod";
import { courses } from "~/content/courses";
import { zurichToUtc } from "~/courses/sessions.server";
import { draftFormSchema, readForm, type FormRead } from "~/invoices/form.server";
import { isIsoDate, isoDateOfTyped } from "~/utils/format";
import type { QuoteDraft } from "./quotes.server";

/** The client, lines and dates, with the words of a quote's dates. */
const partySchema = draftFormSchema({
  issuedOn: "Indiquez la date du devis, par exemple 25.11.2026.",
  dueOn: "Indiquez jusqu’à quand le devis est valable, par exemple 25.12.2026.",
  dueBefore: "La validité ne peut pas précéder la date du devis.",
});

const typed = (max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" ? value.slice(0, 500).trim().replace(/\s+/g, " ") : ""),
    z.string().max(max, `Au plus ${max} caractères.`),
  );

/** The group and its planned session. */
const sessionSchema = z.object({
  groupSize: typed(4).refine(
    (value) => !value || (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 300),
    "Un nombre de personnes entre 1 et 300, ou rien.",
  ),
  courseId: typed(100).refine(
    (value) => courses.some((course) => course.id === value),
    "Choisissez le cours ou l’atelier proposé.",
  ),
  sessionDate: typed(20)
    .transform(isoDateOfTyped)
    .refine(isIsoDate, "Indiquez la date de la séance, par exemple 02.03.2027."),
  sessionTime: typed(5).refine(
    (value) => /^([01]\d|2[0-3]):[0-5]\d$/.test(value),
    "Indiquez l’heure de début, par exemple 14:00.",
  ),
  durationMinutes: typed(3).refine(
    (value) => /^\d+$/.test(value) && Number(value) >= 15 && Number(value) <= 720,
    "Une durée en minutes, entre 15 et 720 (par exemple 90).",
  ),
  placeName: typed(120).refine(Boolean, "Indiquez le lieu, par exemple « Salle communale »."),
  placeAddress: typed(200).refine(Boolean, "Indiquez l’adresse du lieu, par exemple « Rue du Lac 3, 1800 Vevey »."),
});

/**
 * Reads and checks the quote form (see the module's comment).
 * @returns the draft, or each field's first French message and what was typed.
 */
export function readQuoteForm(form: FormData): FormRead<QuoteDraft> {
  form.set("clientKind", "organisation");
  const party = readForm(form, partySchema);
  const session = readForm(form, sessionSchema);
  if (!party.ok || !session.ok) {
    const values = !party.ok ? party.values : !session.ok ? session.values : {};
    return {
      ok: false,
      values,
      errors: { ...(party.ok ? {} : party.errors), ...(session.ok ? {} : session.errors) },
    };
  }
  const { clientName, clientAttention, street, buildingNumber, postalCode, locality, country, email, phone } =
    party.value;
  const { lines, issuedOn, dueOn, contactId } = party.value;
  const plan = session.value;
  return {
    ok: true,
    value: {
      clientName,
      clientAttention,
      street,
      buildingNumber,
      postalCode,
      locality,
      country,
      email,
      phone,
      lines,
      issuedOn,
      contactId,
      validUntil: dueOn,
      groupSize: plan.groupSize ? Number(plan.groupSize) : null,
      courseId: plan.courseId,
      startsAt: zurichToUtc(plan.sessionDate, plan.sessionTime),
      durationMinutes: Number(plan.durationMinutes),
      placeName: plan.placeName,
      placeAddress: plan.placeAddress,
    },
  };
}
