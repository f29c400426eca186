/**
 * The desk's side of courses: reading the session form (course, Swiss date
 * and time, duration, place, capacity, minimum, price, how it is paid) with French
 * messages per field, and the CSV of a session's registrants (the desk's
 * one CSV writer, app/desk/csv.server.ts).
 */
import { z } from "zod";
import { courses } from "~/content/courses";
import { PAYMENT_MODES, PAYS_BY_LABELS, postalAddressLine, type PaymentMode } from "~/content/payment";
import type { PricesSettings } from "~/content/shapes";
import { spreadsheetCsv, spreadsheetCsvStream, type CsvColumn } from "~/desk/csv.server";
import { ATTENDANCE_LABELS, type AttendanceState } from "./attendance";
import type { RegistrationRow } from "./registrants.server";
import { utcToZurich, zurichToUtc } from "~/utils/zurich-time.server";
import { courseBySlug, MAX_SERIES_DATES, weeklyDates, type SessionFields, type SessionRow } from "./sessions.server";

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
  // Absent (a form of an earlier release): sur place, the table's default.
  payment: z.preprocess(
    (value) => (value === "" || value === undefined ? "sur-place" : value),
    z.enum(PAYMENT_MODES as [PaymentMode, ...PaymentMode[]], {
      message: "Choisissez comment le cours se paie",
    }),
  ),
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
  const values = formValuesOf(form);
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
  const { courseId, durationMinutes, placeName, placeAddress, placeAccess, capacity, minimum, priceChf, payment } =
    parsed.data;
  return {
    ok: true,
    fields: {
      courseId,
      startsAt,
      durationMinutes,
      placeName,
      placeAddress,
      placeAccess,
      capacity,
      minimum,
      priceChf,
      payment,
    },
  };
}

/**
 * The form's values for an existing session (Swiss date and time), or the
 * defaults of a new one: its duration and price empty until a course is
 * chosen (then the course's, `courseChoices`; left empty, `withCourseDefaults`).
 */
export function sessionFormValues(session?: SessionRow): SessionFormValues {
  if (!session) {
    return {
      courseId: "",
      date: "",
      time: "14:00",
      durationMinutes: "",
      placeName: "",
      placeAddress: "",
      placeAccess: "",
      capacity: "8",
      minimum: "4",
      priceChf: "",
      payment: "sur-place",
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
    payment: session.payment,
  };
}

/**
 * How many lessons course `courseId` has, read from its duration as
 * app/content/courses.ts writes it ("4 séances de 1h30" is 4); null when it
 * names none ("Une rencontre par mois": single dates).
 */
export function lessonsOfCourse(courseId: string): number | null {
  const match = /^(\d+)\s+séances?\b/.exec(courseBySlug(courseId)?.duration ?? "");
  return match ? Number(match[1]) : null;
}

/**
 * The minutes of one lesson of course `courseId`, read from its duration as
 * app/content/courses.ts writes it ("3 séances de 2h" is 120, "…, 1h30" is
 * 90); null when it names none.
 */
export function minutesOfCourse(courseId: string): number | null {
  const match = /(\d+)\s*h\s*(\d{2})?\s*$/.exec(courseBySlug(courseId)?.duration ?? "");
  return match ? Number(match[1]) * 60 + Number(match[2] ?? 0) : null;
}

/** A course as the session and series forms offer it, with what they start from. */
export interface CourseChoice {
  id: string;
  title: string;
  /** One lesson's minutes; null when the course names none. */
  durationMinutes: number | null;
  /** Its number of lessons ("4 séances"); null for single dates. */
  lessons: number | null;
  /** The price of one lesson in whole francs: the small-group price of Réglages (`prices["small-group"]`), rounded. */
  priceChf: number;
}

/** The courses the forms offer, each with its own duration and the price per lesson of Réglages (`prices`). */
export function courseChoices(prices: PricesSettings): CourseChoice[] {
  return courses.map((course) => ({
    id: course.id,
    title: course.title,
    durationMinutes: minutesOfCourse(course.id),
    lessons: lessonsOfCourse(course.id),
    priceChf: Math.round(prices["small-group"]),
  }));
}

/**
 * The posted session or series form with its empty duration and price
 * filled from the chosen course (`courseChoices`): the course's minutes,
 * and the price per lesson of Réglages times `lessons` (a series: its
 * number of dates; the series form's `count`, or the course's). A form
 * without a known course is returned as posted (its messages follow).
 */
export function withCourseDefaults(form: FormData, prices: PricesSettings, { series = false } = {}): FormData {
  const choice = courseChoices(prices).find((course) => course.id === form.get("courseId"));
  if (!choice) return form;
  const filled = new FormData();
  for (const [name, value] of form.entries()) filled.append(name, value);
  const empty = (name: string) => String(form.get(name) ?? "").trim() === "";
  if (empty("durationMinutes") && choice.durationMinutes) filled.set("durationMinutes", String(choice.durationMinutes));
  if (empty("priceChf")) {
    const count = series ? Number(String(form.get("count") ?? "").trim() || choice.lessons || 1) : 1;
    if (Number.isInteger(count) && count > 0) filled.set("priceChf", String(choice.priceChf * count));
  }
  return filled;
}

/** The series form's own fields, beyond the session form's (`date` is then the first date). */
export interface SeriesFormValues {
  /** "weekly" (chaque semaine from the first date) or "picked" (dates picked one by one). */
  repeat: string;
  /** The number of lessons; empty: the course's. */
  count: string;
  /** The other dates picked one by one (ISO "2026-11-10"), as many inputs as `MAX_SERIES_DATES - 1`; empty ones ignored. */
  otherDates: string[];
}

/** What `readSeriesForm` found: the fields and the dates' instants, or French messages per field with the values sent. */
export type SeriesFormResult =
  | { ok: true; fields: SessionFields; starts: Date[] }
  | {
      ok: false;
      errors: Partial<Record<keyof SessionFormValues | "repeat" | "count" | "otherDates", string>>;
      values: SessionFormValues;
      series: SeriesFormValues;
    };

/**
 * Reads the desk's series form: the session form's fields (its `date` is
 * the first date), then "chaque semaine" (`repeat=weekly`: `count` dates a
 * week apart, at the same Swiss time across a daylight-saving change) or
 * the dates picked one by one (`repeat=picked`: `otherDates`, one per
 * lesson after the first). `count` empty is the course's number of lessons
 * (`lessonsOfCourse`). French messages per field.
 */
export function readSeriesForm(form: FormData): SeriesFormResult {
  const series: SeriesFormValues = {
    repeat: String(form.get("repeat") ?? ""),
    count: String(form.get("count") ?? "").trim(),
    otherDates: form.getAll("otherDates").map((value) => String(value).trim()),
  };
  const session = readSessionForm(form);
  const values = session.ok ? undefined : session.values;
  const errors: Extract<SeriesFormResult, { ok: false }>["errors"] = session.ok ? {} : { ...session.errors };
  const courseId = String(form.get("courseId") ?? "");
  const count = series.count === "" ? lessonsOfCourse(courseId) : Number(series.count);
  if (series.repeat !== "weekly" && series.repeat !== "picked") {
    errors.repeat = "Choisissez « chaque semaine » ou « dates choisies une à une »";
  }
  if (count === null || !Number.isInteger(count) || count < 2 || count > MAX_SERIES_DATES) {
    errors.count = `Indiquez le nombre de séances, de 2 à ${MAX_SERIES_DATES}`;
  }
  const picked = series.otherDates.filter(Boolean);
  if (series.repeat === "picked" && count !== null && !errors.count) {
    if (picked.some((date) => !/^\d{4}-\d{2}-\d{2}$/.test(date))) {
      errors.otherDates = "Indiquez chaque date au format jj.mm.aaaa";
    } else if (picked.length !== count - 1) {
      errors.otherDates = `Pour ${count} séances, indiquez ${count - 1} autres dates (vous en avez indiqué ${picked.length})`;
    }
  }
  if (!session.ok || Object.keys(errors).length) {
    return { ok: false, errors, values: values ?? formValuesOf(form), series };
  }
  const { date, time } = utcToZurich(session.fields.startsAt);
  const days = series.repeat === "weekly" ? weeklyDates(date, count!) : [date, ...picked];
  let starts: Date[];
  try {
    starts = days.map((day) => zurichToUtc(day, time));
  } catch {
    return { ok: false, errors: { otherDates: "Une de ces dates n’existe pas" }, values: formValuesOf(form), series };
  }
  const sorted = starts.map((start) => start.getTime()).sort((a, b) => a - b);
  if (new Set(sorted).size !== sorted.length) {
    return { ok: false, errors: { otherDates: "Une date est donnée deux fois" }, values: formValuesOf(form), series };
  }
  if (sorted[0] !== session.fields.startsAt.getTime()) {
    return {
      ok: false,
      errors: { otherDates: "Les autres dates viennent après la première" },
      values: formValuesOf(form),
      series,
    };
  }
  return { ok: true, fields: session.fields, starts: starts.sort((a, b) => a.getTime() - b.getTime()) };
}

/** The session form's values as sent. */
function formValuesOf(form: FormData): SessionFormValues {
  return Object.fromEntries(FIELD_NAMES.map((name) => [name, String(form.get(name) ?? "")])) as SessionFormValues;
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
 * message, how they pay and the postal address (« sur facture »), source, date of registration (Swiss time), and the attendance
 * ticked on the date (`attendance`, by registration id; empty when not
 * ticked yet).
 */
export function registrantsCsv(
  rows: readonly RegistrationRow[],
  attendance: ReadonlyMap<number, AttendanceState> = new Map(),
): string {
  return spreadsheetCsv(registrantColumns(attendance), rows);
}

/**
 * `registrantsCsv` as the desk's streamed download: one batch, since a
 * session's registrations are bounded by its seats and waiting list (read
 * whole for the attendance already).
 */
export function registrantsCsvStream(
  rows: readonly RegistrationRow[],
  attendance: ReadonlyMap<number, AttendanceState> = new Map(),
): ReadableStream<Uint8Array> {
  return spreadsheetCsvStream(
    registrantColumns(attendance),
    (async function* () {
      yield rows;
    })(),
  );
}

/** The registrants' columns, the attendance read from `attendance`. */
const registrantColumns = (attendance: ReadonlyMap<number, AttendanceState>): CsvColumn<RegistrationRow>[] => [
  { label: "Statut", value: (row) => REGISTRATION_STATUS_LABELS[row.status] ?? row.status },
  { label: "Places", value: (row) => String(row.seats) },
  { label: "Prénom", value: (row) => row.firstName },
  { label: "Nom", value: (row) => row.lastName },
  { label: "Téléphone", value: (row) => row.phone },
  { label: "E-mail", value: (row) => row.email ?? "" },
  { label: "Inscrit(e) par", value: (row) => [row.bookerFirstName, row.bookerLastName].filter(Boolean).join(" ") },
  { label: "Téléphone de qui inscrit", value: (row) => row.bookerPhone ?? "" },
  { label: "E-mail de qui inscrit", value: (row) => row.bookerEmail ?? "" },
  { label: "Message", value: (row) => row.message ?? "" },
  { label: "Paiement", value: (row) => PAYS_BY_LABELS[row.paysBy] ?? row.paysBy },
  { label: "Adresse postale", value: (row) => postalAddressLine(row) },
  { label: "Source", value: (row) => (row.source === "desk" ? "Téléphone" : "Site") },
  { label: "Inscrit(e) le", value: (row, formatTime) => formatTime(row.createdAt) },
  {
    label: "Présence",
    value: (row) => ((state) => (state ? ATTENDANCE_LABELS[state] : ""))(attendance.get(row.id)),
  },
];
