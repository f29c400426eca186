/**
 * `#services`: the three service cards with prices, the zones banner and the
 * device badges. Side by side (from 1024 px), the cards share four grid rows
 * (picture, text, price box, button; CSS subgrid): the price boxes start at
 * the same height and are as tall as the tallest.
 */
import { MapPin } from "lucide-react";
import type { HomeContent } from "~/home/content.server";
import { cn } from "~/utils/cn";
import { Picture } from "~/components/picture";
import { CheckList } from "~/components/check-list";
import { Section } from "~/components/section";
import { themeClasses } from "~/components/theme";
import { buttonVariants } from "~/components/ui/button";
import { TooltipBadge } from "~/components/ui/tooltip";

export function ServicesSection({ content }: { content: HomeContent["services"] }) {
  const { services, devices } = content;
  return (
    <Section id="services" title={content.title} intro={content.intro}>
      <ul className="grid gap-8 lg:grid-cols-3">
        {services.map((service) => {
          const theme = themeClasses[service.color];
          return (
            <li
              key={service.id}
              className={cn(
                "flex flex-col overflow-hidden rounded-3xl border-t-8 bg-white shadow-lg lg:row-span-4 lg:grid lg:grid-rows-subgrid lg:gap-y-0",
                theme.border,
              )}
            >
              <Picture picture={service.picture} sizes="(min-width: 1024px) 400px, 100vw" />
              <div className="px-6 pt-6">
                <h3 className="text-2xl font-bold">{service.title}</h3>
                <p className="mt-3 text-muted">{service.description}</p>
                <CheckList items={service.features} markClassName={theme.text} />
              </div>
              <div className={cn("mx-6 mt-6 rounded-2xl p-4", theme.softBg)}>
                <p className={cn("text-3xl font-bold", theme.strongText)}>
                  {service.priceLabel} {/* A no-break space: "/ séance" never splits across two lines. */}
                  <span className="text-xl font-semibold">
                    /{"\u00a0"}
                    {service.price.per}
                  </span>
                </p>
                <p className="mt-1 text-lg text-ink">{service.priceNote}</p>
              </div>
              <div className="p-6">
                <a href="#contact" className={cn(buttonVariants({ variant: theme.button }), "w-full")}>
                  Réserver maintenant
                </a>
              </div>
            </li>
          );
        })}
      </ul>

      <p className="mx-auto mt-12 flex max-w-3xl flex-wrap items-center justify-center gap-2 rounded-2xl bg-primary-soft px-6 py-4 text-center text-xl font-semibold text-primary-strong">
        <MapPin aria-hidden="true" className="size-6 shrink-0" />
        {content.zonesBanner}
      </p>

      <h3 className="mt-12 text-center text-2xl font-bold">{content.devicesTitle}</h3>
      <ul className="mt-6 flex flex-wrap justify-center gap-3" aria-label="Appareils pris en charge">
        {devices.map((device) => (
          <li key={device.name}>
            <TooltipBadge
              content={device.hint}
              className="inline-flex min-h-12 items-center rounded-full border-2 border-line bg-white px-5 font-semibold"
            >
              {device.name}
              <span className="sr-only"> : {device.hint}</span>
            </TooltipBadge>
          </li>
        ))}
      </ul>
    </Section>
  );
}
