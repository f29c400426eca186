/**
 * `/contact`: the contact form as a page of its own (the no-JavaScript path,
 * and a link anyone can share), and `POST /contact`, the one action for this
 * page and the contact dialog (DESIGN.md section 7).
 *
 * The action answers `ContactActionData`: "invalid" (400, errors per field),
 * "rate-limited" (429), "error" (503: the database did not take the request;
 * nothing was written) or "success" (200: the request and its notification
 * are stored). A filled honeypot is answered like a success and stored nowhere.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { ContactPageView } from "~/components/contact-page";
import { saveContactRequest } from "~/contact/save.server";
import { contactMessages, contactSchema, HONEYPOT_FIELD } from "~/contact/schema";
import type { ContactActionData } from "~/contact/types";
import { pageMeta } from "~/utils/meta";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Contactez-moi",
    description: "Écrivez-moi pour un cours, une aide informatique ou un atelier : je vous réponds sous 24 heures.",
  });

export async function action({ request, context }: Route.ActionArgs) {
  const reply = (status: ContactActionData["status"], httpStatus: number, result: ContactActionData["result"]) =>
    data<ContactActionData>({ status, result }, { status: httpStatus });

  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    formData = new FormData();
  }
  const submission = parseWithZod(formData, { schema: contactSchema });

  if (context.rateLimited) {
    context.logger?.warn("contact: rate limit reached, request refused");
    return reply("rate-limited", 429, submission.reply({ formErrors: [contactMessages.rateLimited] }));
  }
  const honeypot = formData.get(HONEYPOT_FIELD);
  if (honeypot !== null && honeypot !== "") {
    context.logger?.info("contact: honeypot filled, request dropped as spam");
    return reply("success", 200, submission.reply({ resetForm: true }));
  }
  if (submission.status !== "success") {
    return reply("invalid", 400, submission.reply());
  }
  if (!context.db) throw new Error("No database in the request context");
  try {
    const id = await saveContactRequest(context.db, submission.value);
    context.logger?.info({ contactId: id }, "contact: request stored, notification queued");
    context.wakeOutbox?.();
  } catch (error) {
    context.logger?.error(
      { err: { message: (error as Error).message } },
      "contact: could not store the request (database unreachable?)",
    );
    return reply("error", 503, submission.reply({ formErrors: [contactMessages.saveError] }));
  }
  return reply("success", 200, submission.reply({ resetForm: true }));
}

export default function Contact() {
  return <ContactPageView />;
}
