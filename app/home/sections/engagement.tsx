/** `#fracture-digitale`: the engagement against digital ageism, three values, "Une Approche Humaine des Technologies". */
import type { HomeContent } from "~/home/content.server";
import { cn } from "~/utils/cn";
import { Icon } from "~/components/icon";
import { Section } from "~/components/section";
import { themeClasses } from "~/components/theme";

export function EngagementSection({ content }: { content: HomeContent["engagement"] }) {
  return (
    <Section id="fracture-digitale" title={content.title} intro={content.intro} className="bg-cream">
      <ul className="grid gap-6 md:grid-cols-3">
        {content.values.map((value) => {
          const theme = themeClasses[value.color];
          return (
            <li key={value.title} className="rounded-3xl bg-white p-6 shadow-md">
              <span className={cn("inline-flex size-14 items-center justify-center rounded-2xl", theme.softBg)}>
                <Icon name={value.icon} className={cn("size-8", theme.strongText)} />
              </span>
              <h3 className="mt-4 text-2xl font-bold">{value.title}</h3>
              <p className="mt-3 text-muted">{value.text}</p>
            </li>
          );
        })}
      </ul>
      <div className="mx-auto mt-12 max-w-4xl rounded-3xl border-l-8 border-secondary bg-white p-6 shadow-md sm:p-10">
        <h3 className="text-2xl font-bold sm:text-3xl">{content.approach.title}</h3>
        {content.approach.paragraphs.map((paragraph) => (
          <p key={paragraph} className="mt-4 text-muted">
            {paragraph}
          </p>
        ))}
      </div>
    </Section>
  );
}
