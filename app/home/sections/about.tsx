/** `#a-propos`: three photo captions, biography, qualifications, statistics, quote and partner badge. */
import { BadgeCheck, Handshake, Quote } from "lucide-react";
import type { Statistic } from "~/content/types";
import type { HomeContent } from "~/home/content.server";
import { Picture } from "~/components/picture";
import { Section } from "~/components/section";
import { StatisticList } from "./hero";

export function AboutSection({ about, statistics }: { about: HomeContent["about"]; statistics: Statistic[] }) {
  return (
    <Section id="a-propos" title={about.title} intro={about.intro} className="bg-cream">
      <ul className="grid gap-6 md:grid-cols-3">
        {about.captions.map((caption) => (
          <li key={caption.title}>
            <figure className="h-full overflow-hidden rounded-3xl bg-white shadow-md">
              <Picture picture={caption.picture} sizes="(min-width: 768px) 400px, 100vw" />
              <figcaption className="p-5">
                <span className="block text-xl font-bold">{caption.title}</span>
                <span className="mt-2 block text-muted">{caption.text}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>

      <div className="mt-12 grid gap-8 lg:grid-cols-3">
        {about.biography.map((part) => (
          <div key={part.title} className="rounded-3xl bg-white p-6 shadow-md">
            <h3 className="text-2xl font-bold text-primary-strong">{part.title}</h3>
            <p className="mt-3 text-muted">{part.text}</p>
          </div>
        ))}
      </div>

      <h3 className="mt-12 text-center text-2xl font-bold">{about.qualificationsTitle}</h3>
      <ul className="mt-6 flex flex-wrap justify-center gap-3">
        {about.qualifications.map((qualification) => (
          <li
            key={qualification}
            className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 font-semibold shadow-sm"
          >
            <BadgeCheck aria-hidden="true" className="size-5 shrink-0 text-secondary" />
            {qualification}
          </li>
        ))}
      </ul>

      <div className="mt-12">
        <StatisticList statistics={statistics} />
      </div>

      <figure className="mx-auto mt-12 max-w-3xl rounded-3xl bg-primary-strong p-8 text-white shadow-lg">
        <Quote aria-hidden="true" className="size-10 opacity-80" />
        <blockquote className="mt-3 text-2xl leading-snug font-semibold">«&nbsp;{about.quote.text}&nbsp;»</blockquote>
        <figcaption className="mt-4 text-lg text-white/90">{about.quote.context}</figcaption>
      </figure>

      <p className="mx-auto mt-8 flex max-w-3xl flex-wrap items-center justify-center gap-3 text-center">
        <Handshake aria-hidden="true" className="size-7 shrink-0 text-accent" />
        <span className="rounded-full bg-accent px-3 py-1 text-lg font-bold text-white">{about.partner.label}</span>
        <span className="font-semibold">{about.partner.text}</span>
      </p>
    </Section>
  );
}
