/**
 * The newsletter's field names and limits, for the browser and the server
 * alike (no zod here: the subscription box is on the home page, whose
 * JavaScript budget has no room for a validation library).
 */

/** The hidden field bots fill. */
export const NEWSLETTER_HONEYPOT = "website";

/** Largest body the subscription action reads, in bytes. */
export const NEWSLETTER_BODY_LIMIT_BYTES = 4 * 1024;

/** Longest subject and body of a letter the desk accepts (characters). */
export const LETTER_LIMITS = { subject: 200, body: 50_000 } as const;
