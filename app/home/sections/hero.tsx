/** `#accueil`: headline, introduction, the two buttons, the four statistics and the hero picture. */
import { Award } from "lucide-react";
import type { Statistic } from "~/content/types";
import type { HomeContent } from "~/home/content.server";
import { Picture } from "~/components/picture";
import { buttonVariants } from "~/components/ui/button";

export function HeroSection({ hero, statistics }: { hero: HomeContent["hero"]; statistics: Statistic[] }) {
  return (
    <section
      id="accueil"
      aria-labelledby="accueil-titre"
      className="bg-gradient-to-b from-primary-soft/60 to-white pt-10 pb-16 sm:pt-16"
    >
      <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 sm:px-6 lg:grid-cols-2">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 text-lg font-semibold text-primary-strong shadow-sm">
            <Award aria-hidden="true" className="size-5 shrink-0" />
            {hero.badge}
          </p>
          <h1 id="accueil-titre" className="mt-5 text-4xl font-bold text-ink sm:text-5xl">
            {hero.title} <span className="text-primary">{hero.titleHighlight}</span>
          </h1>
          <p className="mt-5 text-xl text-muted">{hero.intro}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <a href="#services" className={buttonVariants({ size: "large" })}>
              {hero.primaryButton}
            </a>
            <a href="#contact" className={buttonVariants({ size: "large", variant: "outline" })}>
              {hero.secondaryButton}
            </a>
          </div>
        </div>
        <div className="overflow-hidden rounded-3xl shadow-xl">
          <Picture picture={hero.picture} priority sizes="(min-width: 1024px) 600px, 100vw" />
        </div>
      </div>
      <div className="mx-auto mt-12 max-w-7xl px-4 sm:px-6">
        <StatisticList statistics={statistics} />
      </div>
    </section>
  );
}

/** The four statistic tiles (spec section 1 "Claims shown"). */
export function StatisticList({ statistics }: { statistics: Statistic[] }) {
  return (
    <dl className="grid grid-cols-1 gap-4 min-[400px]:grid-cols-2 lg:grid-cols-4">
      {statistics.map((stat) => (
        <div
          key={stat.label}
          className="flex flex-col rounded-2xl border border-line bg-white p-5 text-center shadow-sm"
        >
          <dt className="order-2 mt-1 text-lg font-semibold text-ink">{stat.label}</dt>
          <dd className="order-1 text-4xl font-bold text-primary">{stat.value}</dd>
          <dd className="order-3 mt-1 text-lg text-muted">{stat.description}</dd>
        </div>
      ))}
    </dl>
  );
}
