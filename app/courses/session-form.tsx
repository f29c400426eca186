/**
 * The desk's session form (create and edit): course, date and start time
 * (Swiss time), duration in minutes, place (name, address, access notes),
 * places, minimum and price in francs. A plain post (works without
 * JavaScript); the server's French message sits under its field
 * (`aria-invalid`, `aria-describedby`). Values as strings
 * (`SessionFormValues` of desk.server.ts). The series form is this form
 * with its own fields added (`children`) and its own ids (`idPrefix`).
 */
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { Field } from "~/components/form-parts";

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
  | "priceChf",
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
  children,
}: {
  courses: { id: string; title: string }[];
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
  /** More fields, before the button (the series form's dates). */
  children?: ReactNode;
}) {
  const field = (name: keyof Values) => ({
    id: `${idPrefix}-${name}`,
    errorId: `${idPrefix}-${name}-error`,
    errors: errors[name] ? [errors[name]] : undefined,
  });
  const aria = (name: keyof Values) =>
    errors[name] ? { "aria-invalid": true, "aria-describedby": `${idPrefix}-${name}-error` } : {};
  const text = (name: keyof Values, label: string, control?: ReactNode) => (
    <Field field={field(name)} label={label}>
      {control ?? <Input id={`${idPrefix}-${name}`} name={name} defaultValue={values[name]} {...aria(name)} />}
    </Field>
  );
  return (
    <Form method="post" noValidate className="mt-4 grid gap-5 rounded-2xl border-2 border-gray-200 bg-white p-5">
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
            id={`${idPrefix}-durationMinutes`}
            name="durationMinutes"
            inputMode="numeric"
            defaultValue={values.durationMinutes}
            {...aria("durationMinutes")}
          />,
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
                id={`${idPrefix}-${name}`}
                name={name}
                inputMode="numeric"
                defaultValue={values[name]}
                {...aria(name)}
              />,
            )}
          </div>
        ))}
      </div>
      {children}
      <Button type="submit" className="sm:justify-self-start">
        {submitLabel}
      </Button>
    </Form>
  );
}
