/**
 * Text fields wired to Conform's field metadata, written once for the
 * public forms that ask for a person's details (the contact form, the
 * course registration): the visible label, the optional hint, the control
 * with Conform's attributes (`id`, `name`, `form`, `required`,
 * `aria-invalid`, `aria-describedby` naming the error, then the hint) and
 * the French error under it (`Field`). The server's answer fills them the
 * same way, so they work without JavaScript.
 *
 * Apart from `form-parts.tsx`, so that the forms without Conform (the
 * desk's) do not load it.
 */
import { getInputProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import type { ComponentProps } from "react";
import { Field, hintId } from "./form-parts";
import { Input } from "./ui/input";
import { Textarea } from "./ui/textarea";

/**
 * What every text field takes: Conform's metadata of a field whose value is
 * text (`Value`: `string`, or `string | undefined` for an optional one) in a
 * form of any shape (`FormSchema`; both inferred from `fields.x`), its label,
 * and an optional hint under the label (`{id}-hint`).
 */
interface TextFieldProps<Value extends string | undefined, FormSchema extends Record<string, unknown>> {
  field: FieldMetadata<Value, FormSchema, string[]>;
  label: string;
  hint?: string;
}

/** The hint's id when there is a hint, for the control's `aria-describedby`. */
const hintOf = (field: { id: string }, hint: string | undefined) => (hint ? hintId(field) : undefined);

/**
 * A single-line text field. `type="email"` also asks for the e-mail keyboard
 * and no spelling correction. The browser checks no `pattern`: zod does, with
 * its French message (the form has `noValidate`).
 */
export function InputField<Value extends string | undefined, FormSchema extends Record<string, unknown>>({
  field,
  label,
  hint,
  type = "text",
  autoComplete,
  placeholder,
  inputMode,
}: TextFieldProps<Value, FormSchema> & {
  type?: "text" | "email" | "tel";
  /** The keyboard phones show (`numeric` for a number typed in digits); `email` for an e-mail field. */
  inputMode?: "numeric";
  /** The `autocomplete` token (`given-name`, `family-name`, `email`, `tel`), when the browser may fill it. */
  autoComplete?: ComponentProps<"input">["autoComplete"];
  placeholder?: string;
}) {
  const email = type === "email";
  return (
    <Field field={field} label={label} hint={hint}>
      <Input
        {...getInputProps(field, { type, ariaDescribedBy: hintOf(field, hint) })}
        key={field.key}
        pattern={undefined}
        autoComplete={autoComplete}
        inputMode={email ? "email" : inputMode}
        spellCheck={email ? false : undefined}
        placeholder={placeholder}
      />
    </Field>
  );
}

/** A multi-line text field (the message), `rows` high at first. */
export function TextareaField<Value extends string | undefined, FormSchema extends Record<string, unknown>>({
  field,
  label,
  hint,
  rows,
}: TextFieldProps<Value, FormSchema> & { rows: number }) {
  return (
    <Field field={field} label={label} hint={hint}>
      <Textarea {...getTextareaProps(field, { ariaDescribedBy: hintOf(field, hint) })} key={field.key} rows={rows} />
    </Field>
  );
}
