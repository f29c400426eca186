/**
 * The one shape of a public form's action (the contact form, the callback
 * request), written once: the guards (`guardPublicAction`), then the form
 * read with its zod schema (Conform), then the save. Its answer, for the
 * route to send with `data(...)`:
 *
 * - "too-large" (413) and "rate-limited" (429) with the form's French message;
 * - "success" (200) for spam too (a filled honeypot), stored nowhere, with
 *   `spamExtra()`, so that a robot cannot tell;
 * - "invalid" (400) with the errors per field, the values kept;
 * - "success" (200) with what `save` returned (the code word...), after
 *   which the outbox is woken;
 * - "error" (503) when `save` throws: logged without the driver's message
 *   (it carries the visitor's fields), nothing written, the values kept;
 *   while the database does not answer, the outage's message (retry in a
 *   few minutes, or call) and no line per request (app/db/outage.server.ts).
 * @throws a 405 Response for another method than POST (the guards').
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { databaseFailure } from "~/utils/database-down.server";
import { unavailableWords } from "~/utils/unavailable";
import { guardPublicAction } from "./public-action.server";
import { loggerContext, wakeOutboxContext, type RequestContext } from "~/context.server";

/** What the action answers: its status, the HTTP status, Conform's result, and what the save gave back. */
export interface FormActionAnswer<Extra> {
  status: "success" | "invalid" | "rate-limited" | "too-large" | "error";
  httpStatus: number;
  result: SubmissionResult<string[]>;
  extra?: Extra;
}

export async function runPublicFormAction<Output, Extra>(
  request: Request,
  context: RequestContext,
  options: {
    /** The rate limit's key and the logs' name ("contact", "callback"). */
    name: string;
    bodyLimitBytes: number;
    honeypotField: string;
    schema: z.ZodType<Output>;
    messages: { tooLarge: string; rateLimited: string; saveError: string };
    /** Stores the valid form; returns what the success answer carries and the id to log. */
    save(value: Output): Promise<{ id: number; extra: Extra }>;
    /** What a success carries when the form was spam (nothing stored). */
    spamExtra(): Extra;
  },
): Promise<FormActionAnswer<Extra>> {
  const { name, messages } = options;
  const guard = await guardPublicAction(request, context, options);
  if (guard.outcome === "too-large") {
    return { status: "too-large", httpStatus: 413, result: { status: "error", error: { "": [messages.tooLarge] } } };
  }
  const submission = parseWithZod(guard.formData, { schema: options.schema });
  if (guard.outcome === "rate-limited") {
    return {
      status: "rate-limited",
      httpStatus: 429,
      result: submission.reply({ formErrors: [messages.rateLimited] }),
    };
  }
  if (guard.outcome === "spam") {
    return {
      status: "success",
      httpStatus: 200,
      result: submission.reply({ resetForm: true }),
      extra: options.spamExtra(),
    };
  }
  if (submission.status !== "success") return { status: "invalid", httpStatus: 400, result: submission.reply() };

  try {
    const { id, extra } = await options.save(submission.value);
    context.get(loggerContext).info({ contactId: id }, `${name}: request stored, notification queued`);
    context.get(wakeOutboxContext)();
    return { status: "success", httpStatus: 200, result: submission.reply({ resetForm: true }), extra };
  } catch (error) {
    // Never the driver's message: it carries the query's parameters, the visitor's fields. A database
    // that does not answer is logged once for the whole outage, and the form says to retry or call.
    const down = await databaseFailure(context, error, `${name}: could not store the request`);
    const message = down ? unavailableWords.form : messages.saveError;
    return { status: "error", httpStatus: 503, result: submission.reply({ formErrors: [message] }) };
  }
}
