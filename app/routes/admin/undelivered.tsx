/**
 * `/admin/non-remis`: the mails that did not arrive (refused for good by
 * the recipient's provider, or given up after every attempt), the latest
 * first, each with its reason in French, its address to correct and
 * « Corriger et renvoyer », or « Ne pas renvoyer ». The desk's header links
 * here with their number. The forms of a person's page and a session's
 * page post here too (`intent`: `resend|dismiss`, one function each in
 * ./undelivered/intents.server.ts) and come back to their page.
 * Works without JavaScript.
 */
import { useActionData, useLoaderData } from "react-router";
import { Notice } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { UndeliveredMails, UndeliveredOutcome } from "~/desk/undelivered";
import { readFormData } from "~/guards/body.server";
import { dbContext } from "~/context.server";
import type { Route } from "./+types/undelivered";
import { dismissIntent, resendIntent, unknownIntent } from "./undelivered/intents.server";
import { undeliveredFor } from "./undelivered/page.server";
import { SenderPageLine } from "./sender/link";
import { UNDELIVERED_PATH } from "./undelivered/path";

export const handle = deskHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  return {
    mails: await undeliveredFor(context.get(dbContext), { all: true }),
    outcome: new URL(request.url).searchParams.get("envoi"),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("E-mails non remis", matches);

export async function action({ request, context }: Route.ActionArgs) {
  const args = { form: await readFormData(request, 8 * 1024), context, id: 0 };
  switch (args.form.get("intent")) {
    case "resend":
      return resendIntent(args);
    case "dismiss":
      return dismissIntent(args);
    default:
      return unknownIntent();
  }
}

export default function Undelivered() {
  const { mails, outcome } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">E-mails non remis</h1>
      <p className="mt-4 max-w-3xl text-lg">
        Ces e-mails ne sont pas arrivés chez leur destinataire. Le plus souvent, l’adresse contient une faute :
        corrigez-la et renvoyez. La correction vaut aussi pour l’inscription et les autres e-mails prévus pour cette
        adresse.
      </p>
      <SenderPageLine lead={"Beaucoup d’e-mails refusés, ou arrivés dans les indésirables\u00a0?"} />
      <UndeliveredOutcome outcome={outcome} />
      {answer?.message ? (
        <Notice tone="alert" className="mt-6">
          {answer.message}
        </Notice>
      ) : null}
      {mails.length === 0 ? (
        <p className="mt-8 text-lg">Tous les e-mails sont partis : aucun n’a été refusé.</p>
      ) : (
        <UndeliveredMails mails={mails} action={UNDELIVERED_PATH} back={UNDELIVERED_PATH} error={answer} />
      )}
    </div>
  );
}
