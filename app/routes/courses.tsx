/**
 * `/cours`: each course with its next three dates (a series as one), their
 * places left or "Complet", and when it has more, « Voir toutes les dates »
 * to its own page (`/cours/{slug}`, which lists them all): a page a few
 * dozen KB light on an old telephone even with hundreds of sessions. Kept in
 * the render cache until a seat or a session changes, or the first session
 * starts. Each session links to its course's registration form;
 * "par téléphone" is followed by the owner's telephone, one tap away (`PhoneReveal`).
 */
import { useLoaderData } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { PhoneReveal, usePhoneChannels } from "~/contact/phone-reveal";
import { courses } from "~/content/courses";
import { upcomingByCourse } from "~/courses/public.server";
import { SessionList } from "~/courses/session-list";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import type { Route } from "./+types/courses";
import { cachedPage } from "~/utils/render-cache";
import { needsDatabase } from "~/utils/database-down.server";
import { dbContext, renderHintsContext, clockContext } from "~/context.server";

/** How many dates of each course `/cours` shows; its own page shows them all. */
const SHOWN_PER_COURSE = 3;

export async function loader({ context, request }: Route.LoaderArgs) {
  // The database down: the French 503 page (app/utils/database-down.server.ts).
  const byCourse = await needsDatabase(context, () =>
    upcomingByCourse(
      context.get(dbContext),
      context.get(clockContext).now(),
      SHOWN_PER_COURSE,
      context.get(renderHintsContext),
    ),
  );
  return {
    // The courses in their usual order, those with a date to come.
    dated: courses.flatMap((course) => {
      const dates = byCourse[course.id];
      return dates ? [{ id: course.id, title: course.title, ...dates }] : [];
    }),
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
  const { dated, courses } = useLoaderData<typeof loader>();
  const channels = usePhoneChannels();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <h1 className="text-4xl font-bold">Les prochains cours</h1>
      <p className="mt-4 text-xl text-muted">
        Des cours en petit groupe, de 4 à 8 personnes, pour progresser à votre rythme. Choisissez une date, puis
        inscrivez-vous en ligne ou par téléphone.
      </p>
      {channels ? <PhoneReveal channels={channels} idPrefix="cours" className="mt-4" /> : null}
      {dated.length === 0 ? (
        <>
          <h2 className="mt-10 text-3xl font-bold">Prochaines dates</h2>
          <SessionList sessions={[]} showCourse={false} />
        </>
      ) : null}
      {dated.map((course) => (
        <section key={course.id} aria-labelledby={`cours-${course.id}`} className="mt-12">
          <h2 id={`cours-${course.id}`} className="text-3xl font-bold">
            <a href={`/cours/${course.id}`}>{course.title}</a>
          </h2>
          <p className="mt-2 text-xl text-muted">
            {course.total > course.sessions.length
              ? `Les ${course.sessions.length} prochaines dates sur ${course.total}\u00a0:`
              : course.total > 1
                ? `Les ${course.total} prochaines dates\u00a0:`
                : "La prochaine date\u00a0:"}
          </p>
          <SessionList sessions={course.sessions} showCourse={false} />
          {course.total > course.sessions.length ? (
            <p className="mt-5">
              <a href={`/cours/${course.id}#dates`} className={buttonVariants({ variant: "outline" })}>
                Voir toutes les dates<span className="sr-only"> du cours « {course.title} »</span> ({course.total})
              </a>
            </p>
          ) : null}
        </section>
      ))}
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
