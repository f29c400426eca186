/**
 * `/admin/a-appeler`: « À appeler demain », the people with a lesson
 * tomorrow whom no reminder reaches (no e-mail, no SMS: a landline, or no
 * consent; app/courses/reminder-channels.server.ts `callList`): name,
 * telephone, code word, course, place and time, by time, in four columns
 * that fit a phone. Printable: on paper the desk's frame and the buttons go,
 * the table stays, with a box to tick before each line. While SMS_PROVIDER is `log` (no SMS leaves), the people reached
 * by SMS only are listed too. Guarded by the desk's middleware; no-store.
 */
import { data, useLoaderData } from "react-router";
import { callList } from "~/courses/reminder-channels.server";
import { PrintButton } from "~/courses/print-button";
import { DeskBackLink } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { formatDateTime } from "~/utils/format";
import { clockContext, dbContext, settingsContext } from "~/context.server";
import type { Route } from "./+types/call-list";

export const handle = deskHandle;

export async function loader({ context }: Route.LoaderArgs) {
  const now = context.get(clockContext).now();
  const smsDelivers = context.get(settingsContext).SMS_PROVIDER !== "log";
  const lines = await callList(context.get(dbContext), now, smsDelivers);
  const tomorrow = formatDateTime(new Date(now.getTime() + 86_400_000)).split(", ")[0]!;
  return data({ lines, tomorrow, smsDelivers, at: formatDateTime(now) }, { headers: { "Cache-Control": "no-store" } });
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("À appeler demain", matches);

const cell = "border-b border-gray-300 px-2 py-3 align-top print:border-gray-500 print:py-2";

export default function CallListPage() {
  const { lines, tomorrow, smsDelivers, at } = useLoaderData<typeof loader>();
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
    </article>
  );
}
