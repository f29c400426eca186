/**
 * `#cours`: the four course cards (first 3 topics, then "... et N autres
 * sujets"), each with "S'inscrire au cours" leading to its dates and form
 * (`/cours/{slug}`), and "Formation sur mesure".
 */
import type { HomeContent } from "~/home/content.server";
import { cn } from "~/utils/cn";
import { CheckList } from "~/components/check-list";
import { CourseFacts } from "~/components/course-facts";
import { Section } from "~/components/section";
import { themeClasses } from "~/components/theme";
import { buttonVariants } from "~/components/ui/button";

export function CoursesSection({ content }: { content: HomeContent["courses"] }) {
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
              {/* Takes the free height: in a row of two cards, the boxes and buttons line up at the bottom. */}
              <div className="min-h-5 flex-1" aria-hidden="true" />
              <CourseFacts course={course} className={theme.softBg} />
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
