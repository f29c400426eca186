/**
 * `/contact`: the contact form as a page of its own (the no-JavaScript path,
 * and a link anyone can share), and `POST /contact`, the one action for this
 * page and the contact dialog (DESIGN.md section 7).
 *
 * The action answers `ContactActionData`: "invalid" (400, errors per field),
 * "too-large" (413), "rate-limited" (429), "error" (503: the database did
 * not take the request; nothing was written) or "success" (200: the request
 * and its notification are stored; the answer carries its code word). The public action guards
 * (`app/guards/public-action.server.ts`) run first; spam is answered like a
 * success and stored nowhere (`runPublicFormAction`).
 */
import { data } from "react-router";
import { ContactPageView } from "~/contact/page";
import { saveContactRequest } from "~/contact/save.server";
import { CONTACT_BODY_LIMIT_BYTES, contactMessages, contactSchema, HONEYPOT_FIELD } from "~/contact/schema";
import type { ContactActionData } from "~/contact/types";
import { runPublicFormAction } from "~/guards/form-action.server";
import { recipientCapFor } from "~/mail/recipient-cap.server";
import { loaderMeta } from "~/seo/meta";
import { newCodeWord } from "~/trust/code-word.server";
import { pageMeta } from "~/seo/page-meta.server";
import type { Route } from "./+types/contact";
import { cachedPage } from "~/utils/render-cache";
import { settingsContext, dbContext, clockContext } from "~/context.server";

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
  const answer = await runPublicFormAction(request, context, {
    name: "contact",
    bodyLimitBytes: CONTACT_BODY_LIMIT_BYTES,
    honeypotField: HONEYPOT_FIELD,
    schema: contactSchema,
    messages: contactMessages,
    async save(value) {
      const codeWord = newCodeWord();
      const id = await saveContactRequest(context.get(dbContext), value, context.get(clockContext).now(), {
        siteUrl: context.get(settingsContext).SITE_URL,
        codeWord,
        mailCap: recipientCapFor(context),
      });
      return { id, extra: codeWord };
    },
    spamExtra: newCodeWord,
  });
  return data<ContactActionData>(
    { status: answer.status, result: answer.result, codeWord: answer.extra },
    { status: answer.httpStatus },
  );
}

export default function Contact() {
  return <ContactPageView />;
}
