/**
 * `/admin/demandes/:id`: one contact or callback request (its half-days, a
 * tap-to-call button, no e-mail), its code word: every field (a group's
 * organisation, commune and size for a talk or workshop), the consent and
 * its time, the owner's notification (sent, attempts, last error, failed;
 * "Renvoyer la notification" when it failed), the status with its history,
 * and the free note. Each form posts to this page's action
 * (`intent=status|note|resend`, one function each:
 * app/contact/desk-actions.server.ts); all work without JavaScript.
 */
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { GROUP_SERVICE, groupRows } from "~/contact/schema";
import { halfDaysText } from "~/contact/half-days";
import { kindLabel, requestSubject } from "~/contact/request-kind";
import { DeskBackLink, telHref } from "~/desk/frame";
import { Notice } from "~/desk/form-parts";
import { idParam } from "~/desk/route-params.server";
import { deskHandle, deskMeta } from "~/desk/meta";
import { NOTE_MAX, statusLabel } from "~/contact/requests";
import { getRequest } from "~/contact/requests.server";
import { resendIntent, saveNoteIntent, setStatusIntent } from "~/contact/desk-actions.server";
import { StatusBadge, StatusOptions } from "~/contact/status-badge";
import { readFormData } from "~/guards/body.server";
import { formatDateTime } from "~/utils/format";
import type { Route } from "./+types/request";
import { dbContext } from "~/context.server";

export const handle = deskHandle;

export async function loader({ context, params }: Route.LoaderArgs) {
  const found = await getRequest(context.get(dbContext), idParam(params.id));
  if (!found) throw data(null, { status: 404 });
  const { request: row, history, mails } = found;
  return {
    id: row.id,
    kind: kindLabel(row.kind),
    codeWord: row.codeWord,
    fields: [
      ["Type", kindLabel(row.kind)],
      ["Prénom", row.firstName],
      ["Nom", row.lastName],
      ["E-mail", row.email ?? "(aucune : rappel par téléphone)"],
      ["Téléphone", row.phone],
      ...(row.kind === "rappel"
        ? ([["Moments qui conviennent", halfDaysText(row.halfDays)]] as [string, string][])
        : ([
            ["Service", requestSubject(row)],
            ...groupRows(row),
            ["Lettre d’information", row.newsletterConsent ? "Oui, souhaite la recevoir" : "Non"],
          ] as [string, string][])),
      ["Mot de code", row.codeWord ? `« ${row.codeWord} »` : "(aucun : demande antérieure aux mots de code)"],
      ["Message", row.message?.trim() || "(aucun)"],
      ["Consentement au contact", `Donné le ${formatDateTime(row.consentTimestamp)}`],
      ["Reçue le", formatDateTime(row.createdAt)],
    ] as [string, string][],
    email: row.email,
    /** A talk or workshop for a group: « Faire un devis » (app/quotes/). */
    group: row.service === GROUP_SERVICE,
    phone: row.phone,
    status: row.status,
    note: row.note,
    history: history.map((event) => ({
      id: event.id,
      at: formatDateTime(event.at),
      from: event.fromStatus ? statusLabel(event.fromStatus) : null,
      to: statusLabel(event.toStatus),
    })),
    mails: mails.map((mail) => ({
      id: mail.id,
      state: mail.sentAt
        ? `Envoyée le ${formatDateTime(mail.sentAt)}`
        : mail.failedAt
          ? `Abandonnée le ${formatDateTime(mail.failedAt)}`
          : "En attente d’envoi",
      failed: Boolean(mail.failedAt),
      attempts: mail.attempts,
      lastError: mail.lastError,
    })),
  };
}

export const meta: Route.MetaFunction = ({ data: loaded, matches }) =>
  deskMeta(loaded ? `Demande n° ${loaded.id}` : "Demande introuvable", matches);

export async function action({ request, context, params }: Route.ActionArgs) {
  const args = { form: await readFormData(request, 64 * 1024), context, id: idParam(params.id) };
  switch (args.form.get("intent")) {
    case "status":
      return setStatusIntent(args);
    case "note":
      return saveNoteIntent(args);
    case "resend":
      return resendIntent(args);
    default:
      return data({ message: "Action inconnue." }, { status: 400 });
  }
}

export default function RequestPage() {
  const request = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <DeskBackLink to="/admin">Toutes les demandes</DeskBackLink>
      <div className="mt-4 flex flex-wrap items-center gap-4">
        <h1 className="text-3xl font-bold">
          {request.kind} n° {request.id}
        </h1>
        <StatusBadge status={request.status} />
      </div>
      {answer?.message ? (
        <Notice tone="status" className="mt-4">
          {answer.message}
        </Notice>
      ) : null}
      {request.codeWord ? (
        <p className="mt-4 text-xl">
          Mot de code à dire au début de l’appel : <strong>« {request.codeWord} »</strong>
        </p>
      ) : null}
      <p className="mt-4 flex flex-wrap gap-3">
        <a href={telHref(request.phone)} className={buttonVariants()}>
          Appeler le {request.phone}
        </a>
        {request.email ? (
          <a href={`mailto:${request.email}`} className={buttonVariants({ variant: "outline" })}>
            Écrire un e-mail
          </a>
        ) : null}
        <Link
          to={
            request.email
              ? `/admin/personne?email=${encodeURIComponent(request.email)}`
              : `/admin/personne?telephone=${encodeURIComponent(request.phone)}`
          }
          className={buttonVariants({ variant: "ghost" })}
        >
          Données de cette personne
        </Link>
        <Link to={`/admin/factures/nouvelle?demande=${request.id}`} className={buttonVariants({ variant: "ghost" })}>
          Faire une facture
        </Link>
        {request.group ? (
          <Link to={`/admin/devis/nouveau?demande=${request.id}`} className={buttonVariants({ variant: "ghost" })}>
            Faire un devis
          </Link>
        ) : null}
      </p>
      <div className="mt-8 grid gap-8 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="details">
          <h2 id="details" className="text-2xl font-bold">
            La demande
          </h2>
          <dl className="mt-4 divide-y-2 divide-gray-100 rounded-2xl border-2 border-gray-200 bg-white">
            {request.fields.map(([label, value]) => (
              <div key={label} className="grid gap-1 p-4 sm:grid-cols-[12rem_1fr]">
                <dt className="text-lg font-semibold">{label}</dt>
                <dd className="text-lg break-words whitespace-pre-line">{value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <div className="space-y-8">
          <section aria-labelledby="suivi">
            <h2 id="suivi" className="text-2xl font-bold">
              Suivi
            </h2>
            <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
              <input type="hidden" name="intent" value="status" />
              <div className="min-w-[min(12rem,100%)] flex-1">
                <Label htmlFor="status">Statut</Label>
                <Select id="status" name="status" defaultValue={request.status} className="mt-2">
                  <StatusOptions />
                </Select>
              </div>
              <Button type="submit">Changer le statut</Button>
            </Form>
            <h3 className="mt-6 text-xl font-bold">Historique</h3>
            {request.history.length === 0 ? (
              <p className="mt-2 text-lg text-muted">Aucun changement de statut pour l’instant.</p>
            ) : (
              <ol className="mt-2 space-y-1 text-lg">
                {request.history.map((event) => (
                  <li key={event.id}>
                    {event.at} : {event.from ? `${event.from} → ` : ""}
                    {event.to}
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section aria-labelledby="note-title">
            <h2 id="note-title" className="text-2xl font-bold">
              Note
            </h2>
            <Form method="post" className="mt-4 space-y-3">
              <input type="hidden" name="intent" value="note" />
              <Label htmlFor="note">Votre note (visible de vous seul)</Label>
              <Textarea id="note" name="note" rows={5} maxLength={NOTE_MAX} defaultValue={request.note} />
              <Button type="submit" variant="outline">
                Enregistrer la note
              </Button>
            </Form>
          </section>
          <section aria-labelledby="notification">
            <h2 id="notification" className="text-2xl font-bold">
              Notification par e-mail
            </h2>
            {request.mails.length === 0 ? (
              <p className="mt-2 text-lg text-muted">Aucune notification pour cette demande.</p>
            ) : (
              <ul className="mt-2 space-y-3 text-lg">
                {request.mails.map((mail) => (
                  <li key={mail.id} className="rounded-xl border-2 border-gray-200 p-3">
                    <p className="font-semibold">{mail.state}</p>
                    <p>
                      {mail.attempts} tentative{mail.attempts > 1 ? "s" : ""}
                    </p>
                    {mail.lastError ? <p className="break-words">Dernière erreur : {mail.lastError}</p> : null}
                    {mail.failed ? (
                      <Form method="post" className="mt-2">
                        <input type="hidden" name="intent" value="resend" />
                        <input type="hidden" name="mail" value={mail.id} />
                        <Button type="submit">Renvoyer la notification</Button>
                      </Form>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}
