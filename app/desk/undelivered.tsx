/**
 * The mails not delivered, as the desk shows them (its page
 * `/admin/non-remis`, a person's page, a session's page): for each, what it
 * was, to whom, when it was given up and why in plain French, a field with
 * the address to correct and « Corriger et renvoyer », and « Ne pas
 * renvoyer ». Each form posts to `action` (the page of mails not delivered)
 * `id`, `email-{id}` (the address) and `retour`, the page to come back to.
 * Works without JavaScript.
 */
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { formatDateTime } from "~/utils/format";
import { Notice, TextField } from "./form-parts";

/** One mail not delivered, as its loader gives it. */
export interface UndeliveredItem {
  id: number;
  /** The French label of its kind. */
  label: string;
  recipient: string | null;
  subject: string | null;
  failedAt: string;
  reason: string;
}

/** The notice after a resend or a dismissal (`?envoi=renvoye|ecarte`), or nothing. */
export function UndeliveredOutcome({ outcome }: { outcome: string | null }) {
  if (outcome === "renvoye")
    return (
      <Notice tone="status" className="mt-6">
        L’e-mail est reparti. S’il est refusé encore, il reviendra dans cette liste avec la raison.
      </Notice>
    );
  if (outcome === "ecarte")
    return (
      <Notice tone="status" className="mt-6">
        L’e-mail ne sera pas renvoyé. Il reste visible dans les données de la personne.
      </Notice>
    );
  return null;
}

export function UndeliveredMails({
  mails,
  action,
  back,
  headingId = "non-remis",
  error,
}: {
  mails: readonly UndeliveredItem[];
  /** Where the forms post (the page of mails not delivered). */
  action: string;
  /** The page to come back to after a post (the current one). */
  back: string;
  headingId?: string;
  /** A refused address: the mail it is about and the message under its field. */
  error?: { mailId: number; emailError?: string };
}) {
  if (mails.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-2xl font-bold text-red-900">
        {mails.length === 1 ? "Un e-mail n’est pas arrivé" : `${mails.length} e-mails ne sont pas arrivés`}
      </h2>
      <ul className="mt-4 grid gap-4">
        {mails.map((mail) => (
          <li key={mail.id} className="rounded-xl border-2 border-red-700 p-4">
            <p className="text-lg font-semibold">{mail.label}</p>
            {mail.subject ? <p className="text-lg">« {mail.subject} »</p> : null}
            <p className="text-lg">
              À : {mail.recipient ?? "votre propre adresse (CONTACT_NOTIFY_TO)"} · abandonné le{" "}
              {formatDateTime(mail.failedAt)}
            </p>
            <p className="mt-2 text-lg">
              <span className="font-semibold">Raison :</span> {mail.reason}.
            </p>
            <Form method="post" action={action} className="mt-3 grid gap-3 md:grid-cols-[1fr_auto] md:items-end">
              <input type="hidden" name="id" value={mail.id} />
              <input type="hidden" name="retour" value={back} />
              {mail.recipient !== null ? (
                <TextField
                  id={`email-${mail.id}`}
                  label="Adresse e-mail (corrigez-la si besoin)"
                  type="email"
                  autoComplete="off"
                  defaultValue={mail.recipient}
                  error={error?.mailId === mail.id ? error.emailError : undefined}
                  required
                />
              ) : null}
              <Button type="submit" name="intent" value="resend">
                {mail.recipient !== null ? "Corriger et renvoyer" : "Renvoyer"}
              </Button>
            </Form>
            <Form method="post" action={action} className="mt-2">
              <input type="hidden" name="id" value={mail.id} />
              <input type="hidden" name="retour" value={back} />
              <Button type="submit" name="intent" value="dismiss" variant="ghost">
                Ne pas renvoyer
              </Button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
