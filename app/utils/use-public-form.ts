/**
 * How the site's public forms (the contact form, the course registration)
 * check what a visitor writes, written once: Conform with the form's zod
 * schema, the one the server's action uses too. The browser checks on
 * submit, then again at each keystroke in a field already checked; the
 * server's answer (`lastResult`) shows its errors the same way, also
 * without JavaScript. One submission at a time: a second press while one
 * is on its way does nothing. `summaryKey` changes at each failed submit
 * (the browser's check refused it, or the server answered): the error
 * summary (`ErrorSummary`) then takes the focus.
 */
import { useForm, type DefaultValue, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useMemo, useState, type FormEvent } from "react";
import type { z } from "zod";

/**
 * Conform's form and fields for `schema` (typed by what the form sends,
 * `Input`), and the `onSubmit` to give the form element.
 */
export function usePublicForm<Input extends Record<string, unknown>, Output>({
  schema,
  id,
  lastResult,
  defaultValue,
  pending,
}: {
  schema: z.ZodType<Output, Input>;
  /** Form id, also the prefix of every field id: unique on the page. */
  id: string;
  /** The action's answer, when there is one. */
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: DefaultValue<Input>;
  /** A submission is on its way. */
  pending: boolean;
}) {
  const constraint = useMemo(() => getZodConstraint(schema), [schema]);
  const [form, fields] = useForm<Input, Output>({
    id,
    lastResult,
    constraint,
    defaultValue,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate({ formData }) {
      return parseWithZod(formData, { schema });
    },
  });

  // Failed submits seen in the browser: Conform prevents the post when its check fails.
  const [refused, setRefused] = useState(0);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (pending) {
      event.preventDefault();
      return;
    }
    form.onSubmit(event);
    // Conform checks a field as it is typed in by submitting the form with an intent button (named
    // "__intent__", @conform-to/dom): that is no submission of the visitor's, and must not move the focus.
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const isIntent = submitter?.getAttribute("name") === "__intent__";
    if (event.defaultPrevented && !isIntent) setRefused((count) => count + 1);
  };
  const summaryKey = useMemo(() => ({ refused, lastResult }), [refused, lastResult]);

  return { form, fields, onSubmit, summaryKey };
}
