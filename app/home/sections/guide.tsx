/** `#guide`: the trainer's portrait and "Votre guide numérique personnel". */
import type { HomeContent } from "~/home/content.server";
import { Picture } from "~/components/picture";

export function GuideSection({ guide }: { guide: HomeContent["guide"] }) {
  return (
    <section id="guide" aria-labelledby="guide-titre" className="py-16 sm:py-20">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 sm:px-6 md:grid-cols-[2fr_3fr]">
        <div className="mx-auto w-full max-w-sm overflow-hidden rounded-3xl shadow-lg">
          <Picture picture={guide.picture} sizes="(min-width: 768px) 384px, 100vw" />
        </div>
        <div>
          <h2 id="guide-titre" className="text-3xl font-bold sm:text-4xl">
            {guide.title}
          </h2>
          {guide.paragraphs.map((paragraph) => (
            <p key={paragraph} className="mt-4 text-xl text-muted">
              {paragraph}
            </p>
          ))}
          <p className="mt-6 text-xl font-semibold text-primary-strong">{guide.name}</p>
        </div>
      </div>
    </section>
  );
}
