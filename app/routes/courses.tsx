/**
 * `/cours`: every upcoming session of every course, by date, with its
 * places left or "Complet"; kept in the render cache until a seat or a
 * session changes, or the first session starts. Each session links to its course's registration form;
 * "par téléphone" is followed by the owner's telephone, one tap away (`PhoneReveal`).
 */
import { useLoaderData } from "react-router";
import { PhoneReveal, usePhoneChannels } from "~/contact/phone-reveal";
import { courses } from "~/content/courses";
import { upcomingSessions } from "~/courses/public.server";
import { SessionList } from "~/courses/session-list";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import type { Route } from "./+types/courses";
import { cachedPage } from "~/utils/render-cache";
import { needsDatabase } from "~/utils/database-down.server";
import { dbContext, renderHintsContext, clockContext } from "~/context.server";

export async function loader({ context, request }: Route.LoaderArgs) {
  return {
    // The database down: the French 503 page (app/utils/database-down.server.ts).
    sessions: await needsDatabase(context, () =>
      upcomingSessions(
        context.get(dbContext),
        context.get(clockContext).now(),
        undefined,
        context.get(renderHintsContext),
      ),
    ),
    courses: courses.map((course) => ({ id: course.id, title: course.title })),
    meta: pageMeta(context, request, {
      title: "Cours en petit groupe : les prochaines dates",
      description:
        "Les prochains cours en petit groupe, de 4 à 8 personnes : dates, lieux, places restantes et inscription en ligne.",
    }),
  };
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: ["courses"] });

export default function CoursesPage() {
  const { sessions, courses } = useLoaderData<typeof loader>();
  const channels = usePhoneChannels();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <h1 className="text-4xl font-bold">Les prochains cours</h1>
      <p className="mt-4 text-xl text-muted">
        Des cours en petit groupe, de 4 à 8 personnes, pour progresser à votre rythme. Choisissez une date, puis
        inscrivez-vous en ligne ou par téléphone.
      </p>
      {channels ? <PhoneReveal channels={channels} idPrefix="cours" className="mt-4" /> : null}
      <h2 className="mt-10 text-3xl font-bold">Prochaines dates</h2>
      <SessionList sessions={sessions} showCourse />
      <h2 className="mt-12 text-2xl font-bold">Les cours</h2>
      <ul className="mt-4 flex flex-col gap-2 text-xl">
        {courses.map((course) => (
          <li key={course.id}>
            <a href={`/cours/${course.id}`}>{course.title}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}
