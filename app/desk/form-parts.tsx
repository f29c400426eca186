/**
 * Pieces the desk's forms share: a message box (`Notice`: `role="status"`
 * in the site's blue for what went well, `role="alert"` in red for what
 * went wrong, text and border so colour is never alone), a field's error
 * line (`FieldError`), a labelled text field with its error
 * (`TextField`: `aria-invalid` and `aria-describedby` set when there is one),
 * and a list of radios (`RadioChoices`: one a line, 48 px high).
 */
import type { ComponentProps, ReactNode } from "react";
import { FieldError as SiteFieldError } from "~/components/form-parts";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { cn } from "~/utils/cn";

/** A message after an action; `className` adds the margin. */
export function Notice({
  tone,
  className,
  children,
}: {
  tone: "status" | "alert";
  className?: string;
  children: ReactNode;
}) {
  return (
    <p
      role={tone}
      className={cn(
        "rounded-xl border-2 p-4 text-lg",
        tone === "status" ? "border-primary bg-primary-soft" : "border-red-700 bg-red-50 text-red-900",
        className,
      )}
    >
      {children}
    </p>
  );
}

/** The error of a field, under it, as every form of the site shows it; nothing without a message. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  return <SiteFieldError id={id} errors={message ? [message] : undefined} />;
}

/**
 * A label, an optional hint under it (its id: `{id}-hint`), a text field named `id`, and its error
 * (its id: `{id}-error`); the field is described by the hint and the error.
 */
export function TextField({
  id,
  label,
  hint,
  error,
  ...input
}: { id: string; label: string; hint?: ReactNode; error?: string } & Omit<ComponentProps<"input">, "id" | "name">) {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-lg text-muted">
          {hint}
        </p>
      ) : null}
      <Input
        id={id}
        name={id}
        className="mt-2"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** Radios named `name`, one a line (`choices`: value and label), `checked` chosen at first; inside a fieldset. */
export function RadioChoices({
  name,
  choices,
  checked,
}: {
  name: string;
  choices: readonly (readonly [string, string])[];
  checked: string;
}) {
  return choices.map(([value, label]) => (
    <label key={value} className="flex min-h-12 items-center gap-3 text-lg">
      <input
        type="radio"
        name={name}
        value={value}
        defaultChecked={checked === value}
        className="size-6 shrink-0 accent-primary focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary"
      />
      {label}
    </label>
  ));
}
