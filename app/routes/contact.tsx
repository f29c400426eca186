/**
 * `/contact`: the contact form as a page of its own (the no-JavaScript path,
 * and a link anyone can share), and `POST /contact`, the one action for this
 * page and the contact dialog (DESIGN.md section 7).
 *
 * The action answers `ContactActionData`: "invalid" (400, errors per field),
 * "too-large" (413), "rate-limited" (429), "error" (503: the database did
 * not take the request; nothing was written) or "success" (200: the request
 * and its notification are stored). The public action guards
 * (`app/guards/public-action.server.ts`) run first; spam is answered like a
 * success and stored nowhere.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { ContactPageView } from "~/contact/page";
import { saveContactRequest } from "~/contact/save.server";
import { CONTACT_BODY_LIMIT_BYTES, contactMessages, contactSchema, HONEYPOT_FIELD } from "~/contact/schema";
import type { ContactActionData } from "~/contact/types";
import { guardPublicAction } from "~/guards/public-action.server";
import { settingsFrom } from "~/config/settings.server";
import { errorFields } from "~/utils/errors.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import type { Route } from "./+types/contact";
import { cachedPage } from "~/utils/render-cache";

export function loader({ context, request }: Route.LoaderArgs) {
  return {
    meta: pageMeta(context, request, {
      title: "Contactez-moi",
      description: "Écrivez-moi pour un cours, une aide informatique ou un atelier : je vous réponds sous 24 heures.",
    }),
  };
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: [] });

export async function action({ request, context }: Route.ActionArgs) {
  const reply = (status: ContactActionData["status"], httpStatus: number, result: ContactActionData["result"]) =>
    data<ContactActionData>({ status, result }, { status: httpStatus });

  const guard = await guardPublicAction(request, context, {
    name: "contact",
    bodyLimitBytes: CONTACT_BODY_LIMIT_BYTES,
    honeypotField: HONEYPOT_FIELD,
  });
  if (guard.outcome === "too-large") {
    return reply("too-large", 413, { status: "error", error: { "": [contactMessages.tooLarge] } });
  }
  const submission = parseWithZod(guard.formData, { schema: contactSchema });
  if (guard.outcome === "rate-limited") {
    return reply("rate-limited", 429, submission.reply({ formErrors: [contactMessages.rateLimited] }));
  }
  if (guard.outcome === "spam") return reply("success", 200, submission.reply({ resetForm: true }));
  if (submission.status !== "success") return reply("invalid", 400, submission.reply());

  if (!context.db) throw new Error("No database in the request context");
  try {
    const id = await saveContactRequest(context.db, submission.value, new Date(), {
      siteUrl: settingsFrom(context).SITE_URL,
    });
    context.logger?.info({ contactId: id }, "contact: request stored, notification queued");
    context.wakeOutbox?.();
  } catch (error) {
    // Never the driver's message: it carries the query's parameters, the visitor's fields.
    context.logger?.error({ err: errorFields(error) }, "contact: could not store the request");
    return reply("error", 503, submission.reply({ formErrors: [contactMessages.saveError] }));
  }
  return reply("success", 200, submission.reply({ resetForm: true }));
}

export default function Contact() {
  return <ContactPageView />;
}
