/**
 * Pieces every public form of the site shares (the contact form, the
 * course registration, the desk's forms): a field with its visible label,
 * hint and error; an error under a group of radios; the honeypot; the
 * form's own errors above its buttons; the submit button's "Envoi…" state.
 * Errors are tied to their control by id (`{id}-hint`, `errorId`) for
 * `aria-describedby`.
 */
import { CircleAlert, LoaderCircle } from "lucide-react";
import type { ReactNode } from "react";
import { Label } from "~/components/ui/label";

/** What a field needs of Conform's field metadata (or of a server answer): its ids and errors. */
export interface FieldState {
  id: string;
  errorId: string;
  errors?: string[];
}

/** The id of a field's hint (`{id}-hint`), for its control's `aria-describedby`. */
export const hintId = (field: { id: string }) => `${field.id}-hint`;

/**
 * One field: visible label, optional hint (`{id}-hint`, for the control's
 * `aria-describedby`), the control, and its error right under it (`errorId`).
 */
export function Field({
  field,
  label,
  hint,
  children,
}: {
  field: FieldState;
  label: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <Label htmlFor={field.id}>{label}</Label>
      {hint ? (
        <p id={hintId(field)} className="text-lg leading-snug text-muted">
          {hint}
        </p>
      ) : null}
      {children}
      {field.errors?.length ? (
        <p id={field.errorId} className={ERROR_CLASS}>
          <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <span>{field.errors.join(" ")}</span>
        </p>
      ) : null}
    </div>
  );
}

const ERROR_CLASS = "flex items-start gap-2 text-lg leading-snug font-semibold text-red-800";

/**
 * An error under a group of radios, or nothing. (`Field` writes its own:
 * one function call less in the home page's JavaScript, which is at its budget.)
 */
export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return errors?.length ? (
    <p id={id} className={ERROR_CLASS}>
      <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <span>{errors.join(" ")}</span>
    </p>
  ) : null;
}

/** The honeypot: people and screen readers never see it; a robot that fills it is ignored by the server. */
export function Honeypot({ formId, name }: { formId: string; name: string }) {
  return (
    <div aria-hidden="true" className="sr-only">
      <label htmlFor={`${formId}-${name}`}>Ne pas remplir ce champ</label>
      <input id={`${formId}-${name}`} type="text" name={name} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** The form's own errors (not tied to a field), announced as an alert; nothing when there are none. */
export function FormErrors({ id, errors }: { id: string; errors?: string[] }) {
  return errors?.length ? (
    <div
      id={id}
      role="alert"
      className="flex gap-3 rounded-2xl border-2 border-red-800 bg-red-50 p-4 text-lg text-red-950"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-6 shrink-0" />
      <div>
        {errors.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
    </div>
  ) : null;
}

/** A submit button's text: `label`, or a spinner and "Envoi…" while the form is on its way. */
export function PendingLabel({ pending, label }: { pending: boolean; label: string }) {
  return pending ? (
    <>
      <LoaderCircle aria-hidden="true" className="size-6 animate-spin motion-reduce:animate-none" />
      Envoi…
    </>
  ) : (
    label
  );
}
