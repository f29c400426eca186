/**
 * `/admin/a-appeler`: « À appeler demain », the people with a lesson
 * tomorrow whom no reminder reaches (no e-mail, no SMS: a landline, or no
 * consent; app/courses/reminder-channels.server.ts `callList`): name,
 * telephone, code word, course, place and time, by time, in four columns
 * that fit a phone. Printable: on paper the desk's frame and the buttons go,
 * the table stays, with a box to tick before each line. While SMS_PROVIDER is `log` (no SMS leaves), the people reached
 * by SMS only are listed too. « Lettres par la poste » (issue 31, item 1): the
 * letters of the people listed who have a postal address, as one PDF
 * (`lettres.pdf`), and the post `intent=letters-sent` that notes them posted
 * today (app/letters/call-list.server.ts). Guarded by the desk's middleware; no-store.
 */
import { data, useActionData, useLoaderData } from "react-router";
import { SMS_HELD_WORDS } from "~/courses/call-words";
import { PrintButton } from "~/courses/print-button";
import { Notice } from "~/desk/form-parts";
import { DeskBackLink, deskLinkClass } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { readFormData } from "~/guards/body.server";
import { callListLettersSentIntent, callListPaper, currentCallList } from "~/letters/call-list.server";
import { LettersForm } from "~/letters/letters-form";
import { formatDateTime } from "~/utils/format";
import { clockContext, dbContext, settingsContext } from "~/context.server";
import type { Route } from "./+types/call-list";

export const handle = deskHandle;

/** What the page says when the letters' PDF had nothing to print (`?courrier=`). */
const PAPER_NOTICES: Record<string, string> = {
  vide: "Aucune lettre à imprimer : les personnes choisies n’ont pas d’adresse postale. Ajoutez-la sur la page de leur séance.",
  personne: "Aucune lettre à imprimer : cochez d’abord les personnes à qui écrire.",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const now = context.get(clockContext).now();
  const smsDelivers = context.get(settingsContext).SMS_PROVIDER !== "log";
  const lines = await currentCallList(context);
  const tomorrow = formatDateTime(new Date(now.getTime() + 86_400_000)).split(", ")[0]!;
  const paperNotice = PAPER_NOTICES[new URL(request.url).searchParams.get("courrier") ?? ""] ?? null;
  const paper = await callListPaper(context.get(dbContext), lines);
  return data(
    { lines, tomorrow, smsDelivers, at: formatDateTime(now), paper, paperNotice },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request, 16 * 1024);
  if (form.get("intent") !== "letters-sent") return data({ message: "Action inconnue." }, { status: 400 });
  return callListLettersSentIntent({ form, context, id: 0 });
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("À appeler demain", matches);

const cell = "border-b border-gray-300 px-2 py-3 align-top print:border-gray-500 print:py-2";

export default function CallListPage() {
  const { lines, tomorrow, smsDelivers, at, paper, paperNotice } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const missing = paper.filter((person) => !person.address);
  return (
    <article className="mt-8 print:mt-0 print:text-black">
      <div className="print:hidden">
        <DeskBackLink to="/admin/cours">Retour aux cours</DeskBackLink>
      </div>
      <h1 className="mt-4 text-3xl font-bold">À appeler demain</h1>
      <p className="mt-2 text-lg">
        Cours du {tomorrow}. Ces personnes ne reçoivent ni e-mail ni SMS de rappel : appelez-les la veille et dites le
        mot code, pour qu’elles sachent que c’est bien vous.
      </p>
      {smsDelivers ? null : (
        <p className="mt-2 text-lg">
          Les SMS ne partent pas encore (aucun fournisseur de SMS n’est réglé) : les personnes qui ont accepté un SMS
          sont aussi sur cette liste.
        </p>
      )}
      <p className="mt-2 hidden text-base print:block">Liste imprimée le {at}.</p>
      <PrintButton />
      {lines.length === 0 ? (
        <p className="mt-6 text-lg font-semibold">Personne à appeler pour demain.</p>
      ) : (
        <div className="mt-6">
          <table className="w-full border-collapse text-left text-lg print:text-base">
            <caption className="sr-only">Personnes à appeler, par heure de cours</caption>
            <thead>
              <tr>
                <th scope="col" className={`${cell} hidden print:table-cell`}>
                  Appelé
                </th>
                <th scope="col" className={cell}>
                  Heure
                </th>
                <th scope="col" className={cell}>
                  Personne
                </th>
                <th scope="col" className={cell}>
                  Cours et lieu
                </th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={`${line.registrationId}-${line.time}`} className="break-inside-avoid">
                  <td className={`${cell} hidden print:table-cell`}>
                    <span aria-hidden="true" className="inline-block size-6 border-2 border-gray-700" />
                  </td>
                  <td className={`${cell} whitespace-nowrap`}>{line.time}</td>
                  <td className={cell}>
                    <span className="block font-semibold">{line.name}</span>
                    <a
                      href={`tel:${line.phone.replace(/\s+/g, "")}`}
                      className="block whitespace-nowrap underline print:no-underline"
                    >
                      {line.phone}
                    </a>
                    <span className="block">Mot code&nbsp;: {line.codeWord ?? "—"}</span>
                    {line.smsHeld ? <span className="block">{SMS_HELD_WORDS}</span> : null}
                  </td>
                  <td className={cell}>
                    {line.course}
                    <span className="block text-base text-muted print:text-black">{line.place}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {paper.length ? (
        <section aria-labelledby="courrier" className="mt-8 print:hidden">
          <h2 id="courrier" className="text-2xl font-bold">
            Lettres par la poste
          </h2>
          <p className="mt-2 text-lg">
            La même lettre que depuis la page de la séance : le cours, ses dates, le lieu et le mot code.
          </p>
          {answer?.message || paperNotice ? (
            <Notice tone="status" className="mt-4">
              {answer?.message ?? paperNotice}
            </Notice>
          ) : null}
          <LettersForm pdf="/admin/a-appeler/lettres.pdf" post="/admin/a-appeler" people={paper} />
          {missing.length ? (
            <ul className="mt-3 grid gap-1 text-lg">
              {missing.map((person) => (
                <li key={person.id}>
                  <a href={`/admin/cours/${person.sessionId}#courrier`} className={deskLinkClass}>
                    Ajouter l’adresse postale de {person.name}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
    </article>
  );
}
