/**
 * The desk's session form (create and edit): course, date and start time
 * (Swiss time), duration in minutes, place (name, address, access notes),
 * places, minimum and price in francs, and how it is paid (« Paiement »: sur
 * place, sur facture, au choix; a series: the same on each date). A plain post (works without
 * JavaScript); the server's French message sits under its field
 * (`aria-invalid`, `aria-describedby`). Values as strings
 * (`SessionFormValues` of desk.server.ts). The series form is this form
 * with its own fields added (`children`) and its own ids (`idPrefix`).
 *
 * A new session or series starts from its course (`CourseChoice`): with
 * JavaScript, choosing the course fills the duration (one lesson) and the
 * price (the price per lesson of Réglages; a series: times its number of
 * dates, the total written under it) unless the owner typed there; without
 * it, the fields left empty are filled the same way by the server
 * (`withCourseDefaults`), as their hints say.
 */
import { useRef, useState, type ReactNode } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { Field, FieldError, hintId } from "~/components/form-parts";
import { PAYMENT_MODE_LABELS, PAYMENT_MODES } from "~/content/payment";
import { RadioChoices } from "~/desk/form-parts";
import { formatChf } from "~/utils/format";

/** A course of the list, and what a new session of it starts from (`CourseChoice` of desk.server.ts). */
export interface CourseOption {
  id: string;
  title: string;
  durationMinutes?: number | null;
  lessons?: number | null;
  priceChf?: number;
}

/** « Proposé : 4 séances à CHF 60.–, soit CHF 240.– pour la série. », or the price of one lesson. */
export function priceInWords(course: CourseOption | undefined, count: number | null, series: boolean): string {
  if (course?.priceChf === undefined) return "";
  if (!series) return `Prix de vos Réglages : ${formatChf(course.priceChf)} par séance.`;
  if (!count) return `${formatChf(course.priceChf)} par séance, fois le nombre de séances.`;
  return `Proposé : ${count} séances à ${formatChf(course.priceChf)}, soit ${formatChf(course.priceChf * count)} pour la série.`;
}

type Values = Record<
  | "courseId"
  | "date"
  | "time"
  | "durationMinutes"
  | "placeName"
  | "placeAddress"
  | "placeAccess"
  | "capacity"
  | "minimum"
  | "priceChf"
  | "payment",
  string
>;

export function SessionForm({
  courses,
  values,
  errors = {},
  submitLabel,
  intent,
  idPrefix = "session",
  dateLabel = "Date",
  priceLabel = "Prix (CHF)",
  series = false,
  children,
}: {
  courses: CourseOption[];
  values: Values;
  errors?: Partial<Record<keyof Values, string>>;
  submitLabel: string;
  /** The hidden `intent` of the post (e.g. "create", "edit"). */
  intent: string;
  /** The fields' ids start with it (two forms on one page: "session", "series"). */
  idPrefix?: string;
  /** The date's label ("Date", or "Première date" in the series form). */
  dateLabel?: string;
  /** The price's label ("Prix (CHF)", or the series' price for all its dates). */
  priceLabel?: string;
  /** The series form: the price proposed is the whole series' (its `count` field, or the course's lessons). */
  series?: boolean;
  /** More fields, before the button (the series form's dates). */
  children?: ReactNode;
}) {
  const [courseId, setCourseId] = useState(values.courseId);
  const [count, setCount] = useState<string>("");
  const typed = useRef(new Set<string>());
  const durationRef = useRef<HTMLInputElement>(null);
  const priceRef = useRef<HTMLInputElement>(null);
  const course = courses.find((option) => option.id === courseId);
  const lessons = series ? Number(count) || course?.lessons || null : 1;
  /** Fills the duration and the price from `option` (× `dates`), where the owner has not typed. */
  const propose = (option: CourseOption | undefined, dates: number | null) => {
    if (durationRef.current && !typed.current.has("durationMinutes") && option?.durationMinutes)
      durationRef.current.value = String(option.durationMinutes);
    if (priceRef.current && !typed.current.has("priceChf") && option?.priceChf !== undefined && dates)
      priceRef.current.value = String(option.priceChf * dates);
  };
  const onChange = (event: React.FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (target.name === "durationMinutes" || target.name === "priceChf") typed.current.add(target.name);
    if (target.name === "courseId") {
      setCourseId(target.value);
      const option = courses.find((item) => item.id === target.value);
      propose(option, series ? Number(count) || option?.lessons || null : 1);
    }
    if (series && target.name === "count") {
      setCount(target.value);
      propose(course, Number(target.value) || course?.lessons || null);
    }
  };
  const pricePerLesson = courses.find((option) => option.priceChf !== undefined)?.priceChf;
  const priceHint =
    pricePerLesson === undefined
      ? undefined
      : `Laissé vide : ${formatChf(pricePerLesson)} par séance, le prix de vos Réglages${series ? ", fois le nombre de séances" : ""}.`;
  const field = (name: keyof Values) => ({
    id: `${idPrefix}-${name}`,
    errorId: `${idPrefix}-${name}-error`,
    errors: errors[name] ? [errors[name]] : undefined,
  });
  const aria = (name: keyof Values, hinted = false) => {
    const described = [
      hinted ? hintId({ id: `${idPrefix}-${name}` }) : "",
      errors[name] ? `${idPrefix}-${name}-error` : "",
    ]
      .filter(Boolean)
      .join(" ");
    return {
      ...(errors[name] ? { "aria-invalid": true as const } : {}),
      ...(described ? { "aria-describedby": described } : {}),
    };
  };
  const text = (name: keyof Values, label: string, control?: ReactNode, hint?: string) => (
    <Field field={field(name)} label={label} hint={hint}>
      {control ?? <Input id={`${idPrefix}-${name}`} name={name} defaultValue={values[name]} {...aria(name)} />}
    </Field>
  );
  return (
    <Form
      method="post"
      noValidate
      onChange={onChange}
      className="mt-4 grid gap-5 rounded-2xl border-2 border-gray-200 bg-white p-5"
    >
      <input type="hidden" name="intent" value={intent} />
      {text(
        "courseId",
        "Cours",
        <Select id={`${idPrefix}-courseId`} name="courseId" defaultValue={values.courseId} {...aria("courseId")}>
          <option value="">Choisissez un cours</option>
          {courses.map((course) => (
            <option key={course.id} value={course.id}>
              {course.title}
            </option>
          ))}
        </Select>,
      )}
      <div className="grid gap-5 sm:grid-cols-3">
        {text(
          "date",
          dateLabel,
          <Input id={`${idPrefix}-date`} name="date" type="date" defaultValue={values.date} {...aria("date")} />,
        )}
        {text(
          "time",
          "Heure de début",
          <Input id={`${idPrefix}-time`} name="time" type="time" defaultValue={values.time} {...aria("time")} />,
        )}
        {text(
          "durationMinutes",
          "Durée (minutes)",
          <Input
            ref={durationRef}
            id={`${idPrefix}-durationMinutes`}
            name="durationMinutes"
            inputMode="numeric"
            defaultValue={values.durationMinutes}
            {...aria("durationMinutes", Boolean(pricePerLesson !== undefined && !values.durationMinutes))}
          />,
          pricePerLesson !== undefined && !values.durationMinutes ? "Laissée vide : une séance du cours." : undefined,
        )}
      </div>
      {text("placeName", "Lieu")}
      {text("placeAddress", "Adresse")}
      {text(
        "placeAccess",
        "Accès (étage, ascenseur, parking, transports publics)",
        <Textarea
          id={`${idPrefix}-placeAccess`}
          name="placeAccess"
          rows={3}
          defaultValue={values.placeAccess}
          {...aria("placeAccess")}
        />,
      )}
      <div className="grid gap-5 sm:grid-cols-3">
        {(
          [
            ["capacity", "Places"],
            ["minimum", "Minimum pour ouvrir"],
            ["priceChf", priceLabel],
          ] as const
        ).map(([name, label]) => (
          <div key={name}>
            {text(
              name,
              label,
              <Input
                ref={name === "priceChf" ? priceRef : undefined}
                id={`${idPrefix}-${name}`}
                name={name}
                inputMode="numeric"
                defaultValue={values[name]}
                {...aria(name, name === "priceChf" && Boolean(priceHint))}
              />,
              name === "priceChf" ? priceHint : undefined,
            )}
          </div>
        ))}
      </div>
      {course?.priceChf !== undefined ? (
        <p aria-live="polite" className="text-lg font-semibold">
          {priceInWords(course, lessons, series)}
        </p>
      ) : null}
      <fieldset className="flex flex-col gap-2" {...aria("payment")}>
        <legend className="mb-1 text-lg font-semibold">Paiement</legend>
        <RadioChoices
          name="payment"
          choices={PAYMENT_MODES.map((mode) => [mode, PAYMENT_MODE_LABELS[mode]] as const)}
          checked={values.payment || "sur-place"}
        />
        {series ? <p className="text-lg text-muted">Le même pour chaque date de la série.</p> : null}
        <FieldError id={`${idPrefix}-payment-error`} errors={errors.payment ? [errors.payment] : undefined} />
      </fieldset>
      {children}
      <Button type="submit" className="sm:justify-self-start">
        {submitLabel}
      </Button>
    </Form>
  );
}
