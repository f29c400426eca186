/**
 * `#cours`: the four course cards (first 3 topics, then "... et N autres
 * sujets"), each with its next sessions ("Prochaines dates": the date in
 * words and "N places restantes" or "Complet", each a link to its
 * registration form) and "S'inscrire au cours" leading to its dates and
 * form (`/cours/{slug}`), and "Formation sur mesure". `sessions` is null
 * when the database did not answer: the cards then show no dates.
 */
import type { CardSession } from "~/courses/public.server";
import { PlacesBadge } from "~/courses/places-badge";
import type { HomeContent } from "~/home/content.server";
import { cn } from "~/utils/cn";
import { CheckList } from "~/components/check-list";
import { CourseFacts } from "~/components/course-facts";
import { Section } from "~/components/section";
import { themeClasses } from "~/components/theme";
import { buttonVariants } from "~/components/ui/button";

/** A card's "Prochaines dates": each session a link to the form with it chosen, or a note when none is planned. */
function NextDates({ courseId, sessions }: { courseId: string; sessions: CardSession[] }) {
  return (
    <div className="mt-6">
      <h4 className="text-xl font-bold">Prochaines dates</h4>
      {sessions.length ? (
        <ul className="mt-3 flex flex-col gap-3">
          {sessions.map((session) => (
            <li key={session.id}>
              <a
                href={`/cours/${courseId}?seance=${session.id}#inscription`}
                className="flex flex-col gap-2 rounded-2xl border-2 border-line p-3 text-ink no-underline hover:border-primary focus-visible:border-primary"
              >
                <span className="font-semibold underline first-letter:uppercase">{session.when}</span>
                <PlacesBadge full={session.placesLeft === 0}>{session.placesText}</PlacesBadge>
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2">
          Pas encore de date fixée. Écrivez-moi ou appelez-moi&nbsp;: je vous préviens dès qu’une date est choisie.
        </p>
      )}
    </div>
  );
}

export function CoursesSection({
  content,
  sessions,
}: {
  content: HomeContent["courses"];
  sessions: Record<string, CardSession[]> | null;
}) {
  return (
    <Section id="cours" title={content.title} intro={content.intro}>
      <ul className="grid gap-8 md:grid-cols-2">
        {content.courses.map((course) => {
          const theme = themeClasses[course.color];
          return (
            <li
              key={course.id}
              className={cn("flex flex-col rounded-3xl border-2 bg-white p-6 shadow-md", theme.border)}
            >
              <h3 className={cn("text-2xl font-bold", theme.strongText)}>{course.title}</h3>
              <p className="mt-1 text-xl font-semibold">{course.subtitle}</p>
              <p className="mt-3 text-muted">{course.description}</p>
              <CheckList items={course.visible} markClassName={theme.text} />
              {course.more ? <p className="mt-2 font-semibold text-muted">{course.more}</p> : null}
              <CourseFacts course={course} className={cn("mt-5", theme.softBg)} />
              {sessions ? <NextDates courseId={course.id} sessions={sessions[course.id] ?? []} /> : null}
              {/* Takes the free height: in a row of two cards, the buttons line up at the bottom. */}
              <div className="flex-1" aria-hidden="true" />
              <a
                href={`/cours/${course.id}`}
                className={cn(buttonVariants({ variant: theme.button }), "mt-6 w-full sm:w-auto sm:self-start")}
              >
                S’inscrire au cours
              </a>
            </li>
          );
        })}
      </ul>
      <div className="mt-12 rounded-3xl bg-gradient-to-r from-primary to-secondary p-8 text-center text-white shadow-lg sm:p-10">
        <h3 className="text-2xl font-bold sm:text-3xl">{content.custom.title}</h3>
        <p className="mx-auto mt-3 max-w-2xl text-xl">{content.custom.text}</p>
        <a href="#contact" className={cn(buttonVariants({ variant: "light", size: "large", leading: "text" }), "mt-6")}>
          {content.custom.button}
        </a>
      </div>
    </Section>
  );
}
