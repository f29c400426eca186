/** `#pour-qui`: "À qui s’adressent nos services?" and the four audience cards. */
import type { HomeContent } from "~/home/content.server";
import { cn } from "~/utils/cn";
import { Picture } from "~/components/picture";
import { Section } from "~/components/section";
import { themeClasses } from "~/components/theme";
import { buttonVariants } from "~/components/ui/button";

export function AudienceSection({ content }: { content: HomeContent["audience"] }) {
  return (
    <Section id="pour-qui" title={content.title} intro={content.intro} className="bg-cream">
      <ul className="grid gap-6 md:grid-cols-2">
        {content.cards.map((card) => (
          <li
            key={card.id}
            className={cn(
              "overflow-hidden rounded-3xl bg-gradient-to-br shadow-md",
              themeClasses[card.gradient.from].from,
              themeClasses[card.gradient.to].to,
            )}
          >
            <Picture picture={card.picture} sizes="(min-width: 768px) 600px, 100vw" />
            <div className="p-6">
              <h3 className="text-2xl font-bold">{card.title}</h3>
              <p className="mt-3 text-ink">{card.text}</p>
            </div>
          </li>
        ))}
      </ul>
      <div className="mx-auto mt-10 flex max-w-3xl flex-col items-center gap-5 text-center">
        <p className="text-xl text-muted">{content.closing}</p>
        <div className="flex flex-wrap justify-center gap-3">
          <a href="#contact" className={buttonVariants({ size: "large" })}>
            Contactez-moi
          </a>
          <a href="/rappel" className={buttonVariants({ variant: "outline", size: "large" })}>
            Rappelez-moi
          </a>
        </div>
      </div>
    </Section>
  );
}
