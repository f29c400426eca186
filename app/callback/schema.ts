/**
 * The callback request form (`/rappel`, issue 23 item 1): one zod schema for
 * the browser (Conform) and the server. First and last name and telephone
 * follow the contact form's rules (`personFields`); at least one half-day of
 * `HALF_DAYS`; an optional message of at most 1,000 characters. No e-mail.
 */
import { z } from "zod";
import { personFields } from "~/contact/schema";
import { HALF_DAYS, type HalfDay } from "~/contact/half-days";
import { callbackMessages } from "./words";

export { callbackMessages };

export const callbackSchema = z.object({
  firstName: personFields.firstName,
  lastName: personFields.lastName,
  phone: personFields.phone,
  halfDays: z
    .array(
      z.enum(HALF_DAYS.map((halfDay) => halfDay.value) as [HalfDay, ...HalfDay[]], {
        message: callbackMessages.halfDays,
      }),
      { message: callbackMessages.halfDays },
    )
    .min(1, callbackMessages.halfDays)
    .max(HALF_DAYS.length, callbackMessages.halfDays),
  message: personFields.message.refine(
    (value) => (value?.length ?? 0) <= 1000,
    "Le message doit contenir au plus 1000 caractères",
  ),
});

/** A valid callback request, as the action stores it. */
export type CallbackRequest = z.output<typeof callbackSchema>;

/** Largest body the callback action reads, in bytes: the longest valid form fits well within it. */
export const CALLBACK_BODY_LIMIT_BYTES = 32 * 1024;
