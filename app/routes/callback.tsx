/**
 * `/rappel` ("Rappelez-moi", issue 23 item 1): the callback request form,
 * and `POST /rappel`, its action. The public action guards run first
 * (`guardPublicAction`: honeypot, rate limit, body limit, same origin; the
 * doors in server/doors.ts on every path spelling), as `runPublicFormAction`
 * runs them for every public form. The action answers
 * `CallbackActionData`: "invalid" (400, errors per field), "too-large"
 * (413), "rate-limited" (429), "error" (503: nothing was written) or
 * "success" (200: the request and the owner's notification are stored; the
 * answer carries the code word). Spam is answered like a success and stored
 * nowhere. The page is kept in the render cache; the POST answers never are.
 */
import { data } from "react-router";
import { CallbackPageView } from "~/callback/page";
import { saveCallbackRequest } from "~/callback/save.server";
import { CALLBACK_BODY_LIMIT_BYTES, callbackMessages, callbackSchema } from "~/callback/schema";
import type { CallbackActionData } from "~/callback/types";
import { HONEYPOT_FIELD } from "~/contact/schema";
import { runPublicFormAction } from "~/guards/form-action.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import { newCodeWord } from "~/trust/code-word.server";
import { cachedPage } from "~/utils/render-cache";
import type { Route } from "./+types/callback";
import { settingsContext, dbContext } from "~/context.server";

export function loader({ context, request }: Route.LoaderArgs) {
  return {
    meta: pageMeta(context, request, {
      title: "Rappelez-moi",
      description:
        "Laissez votre nom et votre numéro de téléphone : je vous rappelle dans les deux jours ouvrables, sans e-mail à donner.",
    }),
  };
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts): it shows no database data. */
export const handle = cachedPage({ tags: [] });

export async function action({ request, context }: Route.ActionArgs) {
  const answer = await runPublicFormAction(request, context, {
    name: "callback",
    bodyLimitBytes: CALLBACK_BODY_LIMIT_BYTES,
    honeypotField: HONEYPOT_FIELD,
    schema: callbackSchema,
    messages: callbackMessages,
    async save(value) {
      const { id, codeWord } = await saveCallbackRequest(context.get(dbContext), value, {
        siteUrl: context.get(settingsContext).SITE_URL,
      });
      return { id, extra: codeWord };
    },
    // A robot gets the same answer as a person, a code word too; nothing is stored.
    spamExtra: newCodeWord,
  });
  return data<CallbackActionData>(
    { status: answer.status, result: answer.result, codeWord: answer.extra },
    { status: answer.httpStatus },
  );
}

export default function Callback() {
  return <CallbackPageView />;
}
