/**
 * The desk's side of courses: reading the session form (course, Swiss date
 * and time, duration, place, capacity, minimum, price) with French
 * messages per field, and the CSV of a session's registrants
 * (csv-stringify; `;` separated with a BOM, so Excel in Switzerland opens it
 * in columns).
 */
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import { courses } from "~/content/courses";
import type { RegistrationRow } from "./booking.server";
import { utcToZurich, zurichToUtc, type SessionFields, type SessionRow } from "./sessions.server";

const sessionFormSchema = z.object({
  courseId: z.enum(courses.map((course) => course.id) as [string, ...string[]], {
    message: "Choisissez un cours de la liste",
  }),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Indiquez la date (jj.mm.aaaa)"),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Indiquez l’heure de début (par exemple 14:00)"),
  durationMinutes: z.coerce
    .number({ message: "Indiquez la durée en minutes" })
    .int("Indiquez la durée en minutes entières")
    .min(15, "Au moins 15 minutes")
    .max(600, "Au plus 600 minutes"),
  placeName: z.string().trim().min(2, "Indiquez le nom du lieu").max(200, "Au plus 200 caractères"),
  placeAddress: z.string().trim().min(5, "Indiquez l’adresse du lieu").max(300, "Au plus 300 caractères"),
  placeAccess: z.string().trim().max(1000, "Au plus 1000 caractères").default(""),
  capacity: z.coerce
    .number({ message: "Indiquez le nombre de places" })
    .int("Un nombre entier")
    .min(1, "Au moins 1 place")
    .max(100, "Au plus 100 places"),
  minimum: z.coerce.number({ message: "Indiquez le minimum" }).int("Un nombre entier").min(0, "0 ou plus"),
  priceChf: z.coerce
    .number({ message: "Indiquez le prix en francs" })
    .int("Un prix en francs entiers")
    .min(0, "0 ou plus")
    .max(10_000, "Au plus CHF 10’000.–"),
});

/** The session form's values as strings, to fill the form again. */
export type SessionFormValues = Record<keyof z.input<typeof sessionFormSchema>, string>;

/** What `readSessionForm` found: the session's fields, or French messages per field with the values sent. */
export type SessionFormResult =
  | { ok: true; fields: SessionFields }
  | { ok: false; errors: Partial<Record<keyof SessionFormValues, string>>; values: SessionFormValues };

const FIELD_NAMES = Object.keys(sessionFormSchema.shape) as (keyof SessionFormValues)[];

/** Reads and checks the desk's session form. */
export function readSessionForm(form: FormData): SessionFormResult {
  const values = Object.fromEntries(
    FIELD_NAMES.map((name) => [name, String(form.get(name) ?? "")]),
  ) as SessionFormValues;
  const parsed = sessionFormSchema.safeParse(values);
  const errors: Partial<Record<keyof SessionFormValues, string>> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = issue.path[0] as keyof SessionFormValues;
      errors[name] ??= issue.message;
    }
    return { ok: false, errors, values };
  }
  let startsAt: Date;
  try {
    startsAt = zurichToUtc(parsed.data.date, parsed.data.time);
  } catch {
    return { ok: false, errors: { date: "Cette date n’existe pas" }, values };
  }
  if (parsed.data.minimum > parsed.data.capacity) {
    return { ok: false, errors: { minimum: "Le minimum ne peut pas dépasser le nombre de places" }, values };
  }
  const { courseId, durationMinutes, placeName, placeAddress, placeAccess, capacity, minimum, priceChf } = parsed.data;
  return {
    ok: true,
    fields: { courseId, startsAt, durationMinutes, placeName, placeAddress, placeAccess, capacity, minimum, priceChf },
  };
}

/** The form's values for an existing session (Swiss date and time), or the defaults of a new one. */
export function sessionFormValues(session?: SessionRow): SessionFormValues {
  if (!session) {
    return {
      courseId: "",
      date: "",
      time: "14:00",
      durationMinutes: "120",
      placeName: "",
      placeAddress: "",
      placeAccess: "",
      capacity: "8",
      minimum: "4",
      priceChf: "55",
    };
  }
  const { date, time } = utcToZurich(new Date(session.startsAt));
  return {
    courseId: session.courseId,
    date,
    time,
    durationMinutes: String(session.durationMinutes),
    placeName: session.placeName,
    placeAddress: session.placeAddress,
    placeAccess: session.placeAccess,
    capacity: String(session.capacity),
    minimum: String(session.minimum),
    priceChf: String(session.priceChf),
  };
}

/** French labels of a registration's status. */
export const REGISTRATION_STATUS_LABELS: Record<string, string> = {
  confirmed: "Inscrit(e)",
  waiting: "Liste d’attente",
  cancelled: "Annulé(e)",
};

/**
 * The CSV of a session's registrations, in arrival order: status, seats,
 * attendee, telephone, e-mail, registered by (name, telephone, e-mail),
 * message, source, date of registration (Swiss time).
 */
export function registrantsCsv(rows: readonly RegistrationRow[]): string {
  const at = (iso: string) => {
    const { date, time } = utcToZurich(new Date(iso));
    return `${date} ${time}`;
  };
  return (
    "\uFEFF" +
    stringify(
      rows.map((row) => [
        REGISTRATION_STATUS_LABELS[row.status] ?? row.status,
        row.seats,
        row.firstName,
        row.lastName,
        row.phone,
        row.email ?? "",
        [row.bookerFirstName, row.bookerLastName].filter(Boolean).join(" "),
        row.bookerPhone ?? "",
        row.bookerEmail ?? "",
        row.message ?? "",
        row.source === "desk" ? "Téléphone" : "Site",
        at(row.createdAt),
      ]),
      {
        delimiter: ";",
        header: true,
        columns: [
          "Statut",
          "Places",
          "Prénom",
          "Nom",
          "Téléphone",
          "E-mail",
          "Inscrit(e) par",
          "Téléphone de qui inscrit",
          "E-mail de qui inscrit",
          "Message",
          "Source",
          "Inscrit(e) le",
        ],
        // A cell that starts like a formula gets a leading apostrophe (CSV injection); a telephone number
        // (digits, spaces and + ( ) - . only) cannot be one and stays as it is.
        cast: {
          string: (value) => (/^[=+\-@\t\r]/.test(value) && !/^[0-9 +().-]+$/.test(value) ? `'${value}` : value),
        },
      },
    )
  );
}
