/**
 * `/admin/envoi`, « Envoi des e-mails » (issue 32 item 2, decision 047):
 * what the DNS says of MAIL_FROM's domain (SPF, DKIM at the selector typed
 * in the page's GET form `?selecteur=`, DMARC, MX, the From's alignment),
 * each with its verdict and what to ask of whoever manages the domain
 * (`checkSender`, app/mail/sender-check.server.ts, through DNS_SERVERS or
 * the system's resolver, 3 s a lookup; offline, it says so), Gmail's and
 * Yahoo's rules as a checklist, and « M’envoyer un essai » (`intent`:
 * `send-test`, ./sender/intents.server.ts): a test mail to the owner
 * through the outbox. Works without JavaScript. Réglages and the mails not
 * delivered link here.
 */
import { Form, useActionData, useLoaderData } from "react-router";
import { Button } from "~/components/ui/button";
import { Notice, TextField } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { SenderCheck, SenderChecklist } from "~/desk/sender-report";
import { readFormData } from "~/guards/body.server";
import { dnsResolver } from "~/mail/dns-lookups.server";
import { checkSender, isSelector } from "~/mail/sender-check.server";
import { lastSenderTest } from "~/mail/sender-test.server";
import { formatDateTime } from "~/utils/format";
import { typeset } from "~/utils/typography";
import { dbContext, settingsContext } from "~/context.server";
import type { Route } from "./+types/sender";
import { sendTestIntent, unknownIntent } from "./sender/intents.server";
import { SENDER_PATH } from "./sender/path";

export const handle = deskHandle;

const SELECTOR_ERROR = typeset(
  "Un sélecteur DKIM s’écrit en lettres, chiffres et tirets, par exemple « mail » ou « s1 » : c’est le mot avant « ._domainkey ».",
);

export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = context.get(settingsContext);
  const params = new URL(request.url).searchParams;
  const selector = (params.get("selecteur") ?? "").trim().slice(0, 250);
  const selectorError = selector && !isSelector(selector) ? SELECTOR_ERROR : undefined;
  const [report, lastTest] = await Promise.all([
    checkSender({
      from: settings.MAIL_FROM,
      smtpUrl: settings.SMTP_URL,
      selector: selector && !selectorError ? selector.toLowerCase() : null,
      lookups: dnsResolver(settings.DNS_SERVERS),
    }),
    lastSenderTest(context.get(dbContext)),
  ]);
  return {
    report,
    selector,
    selectorError,
    from: settings.MAIL_FROM,
    owner: settings.CONTACT_NOTIFY_TO ?? null,
    smtp: !!settings.SMTP_URL,
    lastTest,
    queued: params.get("essai") === "envoye",
  };
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Envoi des e-mails", matches);

export async function action({ request, context }: Route.ActionArgs) {
  const args = { form: await readFormData(request, 4 * 1024), context, id: 0 };
  switch (args.form.get("intent")) {
    case "send-test":
      return sendTestIntent(args);
    default:
      return unknownIntent();
  }
}

/** Where the last test mail stands, in a sentence. */
function lastTestSentence(test: NonNullable<Awaited<ReturnType<typeof lastSenderTest>>>): string {
  const asked = `Dernier essai demandé le ${formatDateTime(test.createdAt)}`;
  if (test.sentAt) return `${asked} : parti le ${formatDateTime(test.sentAt)}.`;
  if (test.failedAt) return `${asked} : pas remis. Voyez « E-mails non remis ».`;
  return test.attempts > 0
    ? `${asked} : pas encore parti (${test.attempts} tentative${test.attempts > 1 ? "s" : ""}, le serveur d’envoi ne l’a pas encore accepté).`
    : `${asked} : en attente d’envoi.`;
}

export default function Sender() {
  const { report, selector, selectorError, from, owner, smtp, lastTest, queued } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">Envoi des e-mails</h1>
      <p className="mt-4 max-w-3xl text-lg">
        {typeset(
          `Cette page vérifie que vos e-mails ont ce qu’il faut pour arriver dans la boîte de réception, et non dans les indésirables. Elle lit ce que le DNS publie pour ${report.domain}, le domaine de votre adresse d’envoi « ${from} ».`,
        )}
      </p>
      {report.reserved ? (
        <Notice tone="alert" className="mt-6">
          {typeset(
            `L’adresse d’envoi du site, « ${from} », est une adresse d’essai : aucun destinataire ne l’accepterait. Demandez à la personne qui a installé le site de régler MAIL_FROM sur une adresse de votre domaine, par exemple site@votre-domaine.ch.`,
          )}
        </Notice>
      ) : null}
      {report.offline ? (
        <Notice tone="alert" className="mt-6">
          {typeset(
            "Le site n’a pas pu interroger le DNS : son serveur n’a pas de réseau en ce moment, ou le serveur DNS ne répond pas. Rien n’est vérifié ci-dessous. Vos e-mails, eux, ne sont pas touchés : réessayez plus tard.",
          )}
        </Notice>
      ) : null}
      <p className="mt-4 max-w-3xl text-lg">
        {typeset(
          report.provider
            ? `Serveur d’envoi : ${report.provider.host}${report.provider.name ? ` (${report.provider.name})` : ""}.`
            : "Aucun serveur d’envoi n’est réglé (SMTP_URL) : vos e-mails attendent dans la file jusqu’à ce qu’il le soit.",
        )}
      </p>

      <Form method="get" action={SENDER_PATH} className="mt-6 flex max-w-2xl flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 basis-64">
          <TextField
            id="selecteur"
            label="Sélecteur DKIM"
            hint={typeset(
              "Votre fournisseur d’envoi vous le donne avec l’enregistrement DKIM : c’est le mot avant « ._domainkey ». Laissez vide pour essayer les plus courants.",
            )}
            defaultValue={selector}
            error={selectorError}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <Button type="submit" variant="outline">
          Vérifier
        </Button>
      </Form>

      <SenderCheck id="spf" title="SPF" check={report.spf} />
      <SenderCheck id="dkim" title="DKIM" check={report.dkim} />
      <SenderCheck id="dmarc" title="DMARC" check={report.dmarc} />
      <SenderCheck id="mx" title="Serveurs de réception (MX)" check={report.mx} />
      <SenderCheck id="alignement" title="Adresse d’envoi alignée" check={report.alignment} />

      <section aria-labelledby="regles-title" className="mt-8">
        <h2 id="regles-title" className="text-2xl font-bold">
          Les règles de Gmail et Yahoo
        </h2>
        <p className="mt-2 max-w-3xl text-lg">
          {typeset(
            "Depuis 2024, Gmail et Yahoo demandent ceci à qui leur envoie des e-mails. Les autres règles (connexion chiffrée, serveurs bien nommés) sont l’affaire de votre fournisseur d’envoi.",
          )}
        </p>
        <SenderChecklist items={report.checklist} />
      </section>

      <section aria-labelledby="essai-title" className="mt-8 rounded-2xl border-2 border-gray-200 bg-white p-4 sm:p-6">
        <h2 id="essai-title" className="text-2xl font-bold">
          M’envoyer un essai
        </h2>
        <p className="mt-2 max-w-3xl text-lg">
          {typeset(
            owner
              ? `Le site vous envoie un e-mail d’essai à ${owner}, par la même file d’attente que tous ses e-mails.`
              : "Le site met un e-mail d’essai dans sa file d’attente, pour l’adresse où arrivent vos avis (CONTACT_NOTIFY_TO) : elle n’est pas encore réglée.",
          )}
        </p>
        {queued ? (
          <Notice tone="status" className="mt-4">
            {typeset(
              smtp
                ? `Votre essai est en route vers ${owner}. Regardez dans votre boîte de réception d’ici quelques minutes, et aussi dans les indésirables : s’il y est, les vérifications ci-dessus disent pourquoi.`
                : "Votre essai attend dans la file : il partira dès que le serveur d’envoi (SMTP_URL) sera réglé.",
            )}
          </Notice>
        ) : null}
        {answer?.message ? (
          <Notice tone="alert" className="mt-4">
            {answer.message}
          </Notice>
        ) : null}
        {lastTest ? <p className="mt-4 text-lg">{typeset(lastTestSentence(lastTest))}</p> : null}
        <Form method="post" action={SENDER_PATH} className="mt-4">
          {selector && !selectorError ? <input type="hidden" name="selecteur" value={selector} /> : null}
          <Button type="submit" name="intent" value="send-test" size="large">
            M’envoyer un essai
          </Button>
        </Form>
      </section>
    </div>
  );
}
