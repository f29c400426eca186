/**
 * `/cours/place/{token}`: a freed seat offered to a person of the waiting
 * list (decision 049), opened from the offer's mail. While the offer
 * holds: the course, its dates and place, until when the seat is kept, and
 * two buttons that post, « Je prends la place » and « Je ne peux plus »
 * (`?reponse=oui|non`, the mail's links, only say which the person chose:
 * a GET never changes anything, mail scanners follow links). Afterwards:
 * what happened, in plain words (taken, left, the hold passed, withdrawn),
 * and for a person still waiting, « Quitter la liste d’attente ».
 * Works without JavaScript. `noindex`, `no-store`, never cached.
 *
 * `POST` (`intent=accept|decline`), through the public-action guards
 * (`booking`): app/courses/offer-actions.server.ts. An accepted seat
 * answers 303 to the registration's page (its new link). An unknown or
 * expired link answers 404 with a French explanation.
 */
import { CircleCheck, Clock, XCircle } from "lucide-react";
import { data, Form, useActionData, useLoaderData } from "react-router";
import { PhoneReveal, usePhoneChannels } from "~/contact/phone-reveal";
import { Button } from "~/components/ui/button";
import { answerOfferIntent } from "~/courses/offer-actions.server";
import { CLOSED_OFFER_WORDS, offerStateAt } from "~/courses/offer-rules";
import { findOfferByToken } from "~/courses/offers.server";
import { offerPath } from "~/courses/links";
import { BOOKING_HONEYPOT_FIELD } from "~/courses/schema";
import { courseBySlug, sessionEnd } from "~/courses/sessions.server";
import { linkIntent } from "~/courses/link-action.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import { formatChf, formatDateTime, formatDateTimeRange } from "~/utils/format";
import { needsDatabase } from "~/utils/database-down.server";
import { clockContext, dbContext } from "~/context.server";
import type { Route } from "./+types/course-offer";
import { AnswerStatus, InvalidLinkPage, LINK_PAGE_CLASS } from "~/courses/link-page";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const meta = pageMeta(context, request, {
    title: "Une place pour vous",
    description: "Une place libérée dans un cours en petit groupe.",
    noindex: true,
  });
  const now = context.get(clockContext).now();
  const found = await needsDatabase(context, () => findOfferByToken(context.get(dbContext), params.token, now));
  if (!found) return data({ meta, offer: null }, { status: 404 });
  const { offer, registration, session, lessons } = found;
  const series = session.seriesId !== null;
  const reponse = new URL(request.url).searchParams.get("reponse");
  const state = offerStateAt(offer, now);
  return {
    meta,
    offer: {
      state,
      stillWaiting: registration.status === "waiting",
      attendee: `${registration.firstName} ${registration.lastName}`,
      seats: offer.seats,
      courseTitle: courseBySlug(session.courseId)?.title ?? session.courseId,
      courseId: session.courseId,
      when: (series ? lessons : [session])
        .map((lesson) => formatDateTimeRange(lesson.startsAt, sessionEnd(lesson)))
        .join("\n"),
      lessonCount: series ? lessons.length : null,
      place: `${session.placeName}\n${session.placeAddress}`,
      price: formatChf(session.priceChf),
      holdUntil: formatDateTime(offer.holdUntil),
      path: offerPath(params.token),
      /** The mail's link the person followed: « Je prends la place » or « Je ne peux plus ». */
      chose: reponse === "oui" ? ("accept" as const) : reponse === "non" ? ("decline" as const) : null,
    },
  };
}

export const meta = loaderMeta;

export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const guarded = await linkIntent(request, context);
  if ("refused" in guarded) return guarded.refused;
  const { intent } = guarded;
  if (intent !== "accept" && intent !== "decline") return data({ message: "Rien n’a été changé." }, { status: 400 });
  return answerOfferIntent(context, params.token, intent);
}

/** A button that posts `intent` to the offer's page. */
function AnswerButton({
  path,
  intent,
  children,
  primary,
}: {
  path: string;
  intent: "accept" | "decline";
  children: string;
  primary: boolean;
}) {
  return (
    <Form method="post" action={path}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={BOOKING_HONEYPOT_FIELD} value="" />
      <Button type="submit" size="large" variant={primary ? "primary" : "outline"}>
        {children}
      </Button>
    </Form>
  );
}

/** The two answers to an offer, « Je prends la place » first unless the person chose the other. */
const ANSWERS = [
  { intent: "accept", label: "Je prends la place" },
  { intent: "decline", label: "Je ne peux plus" },
] as const;

const TITLES = {
  open: { Icon: Clock, text: "Une place s’est libérée pour vous", tone: "text-primary" },
  accepted: { Icon: CircleCheck, text: "Cette place est à vous", tone: "text-primary" },
  declined: { Icon: XCircle, text: "Vous avez laissé la place", tone: "text-ink" },
  expired: { Icon: XCircle, text: "Le délai pour répondre est passé", tone: "text-red-800" },
  withdrawn: { Icon: XCircle, text: "Cette place n’est plus disponible", tone: "text-red-800" },
} as const;

export default function OfferPage() {
  const { offer } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const channels = usePhoneChannels();
  if (!offer) {
    return <InvalidLinkPage gone="le cours a eu lieu il y a plus d’une semaine" phoneIdPrefix="place" />;
  }
  const title = TITLES[offer.state];
  const places = offer.seats === 2 ? "les 2 places" : "la place";
  return (
    <div className={LINK_PAGE_CLASS}>
      <h1 className={`flex items-start gap-3 text-4xl font-bold ${title.tone}`}>
        <title.Icon aria-hidden="true" className="mt-1 size-10 shrink-0" />
        {title.text}
      </h1>
      <AnswerStatus message={answer?.message} />

      {offer.state === "open" ? (
        <p className="mt-4 text-xl">
          Vous étiez sur la liste d’attente de ce cours, et{" "}
          {offer.seats === 2 ? "2 places se sont libérées" : "une place s’est libérée"}. Je vous garde {places} jusqu’au{" "}
          <strong>{offer.holdUntil}</strong>.
        </p>
      ) : offer.state === "expired" ? (
        <p className="mt-4 text-xl">
          Je vous gardais {places} jusqu’au {offer.holdUntil}. Sans réponse à temps, je{" "}
          {offer.seats === 2 ? "les ai proposées" : "l’ai proposée"} à la personne suivante de la liste d’attente, et
          votre inscription sur la liste a pris fin. Vous souhaitez toujours venir&nbsp;? Appelez-moi&nbsp;: je cherche
          volontiers une autre date avec vous.
        </p>
      ) : offer.state === "withdrawn" ? (
        <p className="mt-4 text-xl">
          {offer.stillWaiting
            ? "La place que je vous proposais a été attribuée autrement, ou la séance a changé. Vous restez sur la liste d’attente, à la même position : si une place se libère, je vous la propose."
            : CLOSED_OFFER_WORDS.withdrawn}
        </p>
      ) : offer.state === "declined" ? (
        <p className="mt-4 text-xl">
          C’est noté&nbsp;: vous ne venez pas, et vous n’êtes plus sur la liste d’attente. Merci de m’avoir répondu.
        </p>
      ) : (
        <p className="mt-4 text-xl">
          Votre inscription est confirmée. La confirmation vous parvient par e-mail, avec le fichier pour votre agenda.
        </p>
      )}

      <dl className="mt-8 divide-y-2 divide-gray-100 rounded-2xl border-2 border-line bg-white text-lg">
        {[
          ["Cours", offer.courseTitle],
          offer.lessonCount === null
            ? ["Date", offer.when]
            : [`Dates (${offer.lessonCount} séance${offer.lessonCount > 1 ? "s" : ""})`, offer.when],
          ["Lieu", offer.place],
          ["Participant(e)", offer.attendee],
          ["Places", String(offer.seats)],
          ["Prix", `${offer.price} par personne`],
        ].map(([label, value]) => (
          <div key={label} className="grid gap-1 p-4 sm:grid-cols-[10rem_1fr]">
            <dt className="font-semibold">{label}</dt>
            <dd className="break-words whitespace-pre-line first-letter:uppercase">{value}</dd>
          </div>
        ))}
      </dl>

      {offer.state === "open" ? (
        <section aria-labelledby="repondre" className="mt-10 rounded-2xl border-2 border-line bg-white p-5">
          <h2 id="repondre" className="text-2xl font-bold">
            {offer.chose === "accept"
              ? "Vous prenez la place\u00a0? Confirmez avec le bouton."
              : offer.chose === "decline"
                ? "Vous ne pouvez plus venir\u00a0? Confirmez avec le bouton."
                : "Votre réponse"}
          </h2>
          <p className="mt-2 text-xl">
            «&nbsp;Je ne peux plus&nbsp;»&nbsp;: vous quittez la liste d’attente, et la place va à une autre personne.
          </p>
          <div className="mt-4 flex flex-wrap gap-3">
            {/* The answer of the mail's link the person followed comes first, as the main button. */}
            {(offer.chose === "decline" ? [...ANSWERS].reverse() : ANSWERS).map(({ intent, label }, index) => (
              <AnswerButton key={intent} path={offer.path} intent={intent} primary={index === 0}>
                {label}
              </AnswerButton>
            ))}
          </div>
        </section>
      ) : offer.stillWaiting ? (
        <section aria-labelledby="quitter" className="mt-10 rounded-2xl border-2 border-line bg-white p-5">
          <h2 id="quitter" className="text-2xl font-bold">
            Vous ne souhaitez plus attendre&nbsp;?
          </h2>
          <div className="mt-4">
            <AnswerButton path={offer.path} intent="decline" primary={false}>
              Quitter la liste d’attente
            </AnswerButton>
          </div>
        </section>
      ) : null}

      <p className="mt-10 text-xl">Une question&nbsp;? Appelez-moi&nbsp;:</p>
      {channels ? <PhoneReveal channels={channels} idPrefix="place" className="mt-3" /> : null}
      <p className="mt-10 text-xl">
        <a href={`/cours/${offer.courseId}`}>Retour au cours</a>
      </p>
    </div>
  );
}
