/** The subscription form: one e-mail field (and the honeypot), shared by the boxes and the action. */
import { z } from "zod";
import { newsletterMessages } from "./words";

z.config({ jitless: true });

/** Where a subscription starts (stored with the subscriber). */
export const SUBSCRIPTION_SOURCES = ["home", "blog", "article", "newsletter", "contact"] as const;

export const subscribeSchema = z.object({
  email: z
    .string({ message: newsletterMessages.email })
    .trim()
    .max(254, newsletterMessages.email)
    .email(newsletterMessages.email),
  source: z.enum(SUBSCRIPTION_SOURCES).catch("newsletter"),
});

/**
 * The rate limit of the posts on the mails' links (confirm, unsubscribe)
 * per address (server/rate-limit.ts). Subscription requests count like the
 * contact form's (CONTACT_RATE_LIMIT_MAX per CONTACT_RATE_LIMIT_WINDOW_MINUTES).
 */
export const NEWSLETTER_LIMITS = {
  "newsletter-link": { limit: 30, windowMs: 10 * 60_000 },
} as const;
