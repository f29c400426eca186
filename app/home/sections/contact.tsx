/**
 * `#contact`: "Contactez-nous", the three contact cards masked until
 * "Révéler", opening hours, "Demande de renseignements" (its "Ouvrir le
 * formulaire" links to `/contact` and opens the contact dialog once
 * JavaScript runs), zones.
 *
 * The details arrive encoded (`app/contact/obfuscate.ts`) and are decoded only
 * when shown, with the "Révéler" toggle of `../reveal.tsx` (a GET form to
 * `/coordonnees` without JavaScript, an in-place toggle with it).
 */
import { Clock, Mail, MapPin, MessageCircle, MessageSquareText, Phone } from "lucide-react";
import { useState, type ReactNode } from "react";
import type { ContactChannels } from "~/content/identity";
import type { HomeContent } from "~/home/content.server";
import { decodeContact } from "~/contact/obfuscate";
import { Masked, RevealToggle } from "~/contact/reveal";
import { ContactDialogLink } from "~/contact/dialog";
import { Section } from "~/components/section";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/utils/cn";

export function ContactSection({
  content: contactSection,
  channels,
  initiallyRevealed = false,
}: {
  content: HomeContent["contact"];
  channels: string;
  initiallyRevealed?: boolean;
}) {
  const [revealed, setRevealed] = useState(initiallyRevealed);
  const details = revealed ? decodeContact<ContactChannels>(channels) : null;
  const { cards, openingHours, zones } = contactSection;

  return (
    <Section id="contact" title={contactSection.title} intro={contactSection.intro} className="bg-primary-soft/50">
      <RevealToggle
        revealed={revealed}
        onToggle={() => setRevealed((value) => !value)}
        hints={contactSection.revealHints}
        labels={contactSection}
        hintId="contact-reveal-hint"
        align="center"
        className="mx-auto max-w-3xl"
      />

      <ul className="mt-10 grid gap-6 md:grid-cols-3" aria-live="polite">
        <ContactCard
          icon={<Phone aria-hidden="true" className="size-7" />}
          title={cards.phone.title}
          note={cards.phone.note}
        >
          {details && (
            <a href={`tel:${details.phone}`} className="font-bold text-primary underline underline-offset-4">
              {details.phoneDisplay}
            </a>
          )}
        </ContactCard>
        <ContactCard
          icon={<Mail aria-hidden="true" className="size-7" />}
          title={cards.email.title}
          note={cards.email.note}
        >
          {details && (
            <a
              href={`mailto:${details.email}`}
              className="font-bold break-all text-primary underline underline-offset-4"
            >
              {details.email}
            </a>
          )}
        </ContactCard>
        <ContactCard
          icon={<MessageCircle aria-hidden="true" className="size-7" />}
          title={cards.whatsapp.title}
          note={cards.whatsapp.note}
        >
          {details && (
            <>
              <span className="block font-bold">{details.whatsappDisplay}</span>
              <a
                href={`https://wa.me/${details.whatsapp}`}
                target="_blank"
                rel="noopener noreferrer"
                className={cn(buttonVariants({ variant: "secondary" }), "mt-3")}
              >
                {cards.whatsapp.link}
                <span className="sr-only"> (nouvel onglet)</span>
              </a>
            </>
          )}
        </ContactCard>
      </ul>

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <div className="rounded-3xl bg-white p-6 shadow-md">
          <h3 className="flex items-center gap-3 text-2xl font-bold">
            <Clock aria-hidden="true" className="size-7 text-primary" />
            {contactSection.hoursTitle}
          </h3>
          <dl className="mt-4 divide-y divide-line">
            {openingHours.map((row) => (
              <div key={row.days} className="flex flex-wrap justify-between gap-x-4 py-2">
                <dt className="font-semibold">{row.days}</dt>
                <dd>{row.hours}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-3 text-muted">{contactSection.eveningNote}</p>
        </div>
        <div className="flex flex-col rounded-3xl bg-white p-6 shadow-md">
          <h3 className="flex items-center gap-3 text-2xl font-bold">
            <MessageSquareText aria-hidden="true" className="size-7 text-primary" />
            {contactSection.inquiry.title}
          </h3>
          <p className="mt-4 flex-1 text-muted">{contactSection.inquiry.text}</p>
          <div className="mt-5 flex flex-wrap gap-3">
            <ContactDialogLink className={buttonVariants({ size: "large", leading: "text" })}>
              {contactSection.inquiry.button}
            </ContactDialogLink>
            {/* Issue 23: a call back, without writing, beside every "Contactez-moi". */}
            <a href="/rappel" className={buttonVariants({ variant: "outline", size: "large", leading: "text" })}>
              Rappelez-moi
            </a>
          </div>
        </div>
      </div>

      <div className="mt-8 rounded-3xl bg-white p-6 shadow-md">
        <h3 className="flex items-center gap-3 text-2xl font-bold">
          <MapPin aria-hidden="true" className="size-7 text-primary" />
          {contactSection.zonesTitle}
        </h3>
        <ul className="mt-4 grid gap-6 md:grid-cols-3">
          {zones.map((zone) => (
            <li key={zone.code}>
              <p className="text-xl font-bold text-primary-strong">
                {zone.canton} <span className="font-semibold text-muted">({zone.code})</span>
              </p>
              <p className="mt-1">{zone.towns.join(", ")}</p>
              <p className="mt-1 text-muted">{zone.coverage}</p>
            </li>
          ))}
        </ul>
      </div>
    </Section>
  );
}

function ContactCard({
  icon,
  title,
  note,
  children,
}: {
  icon: ReactNode;
  title: string;
  note: string;
  children: ReactNode;
}) {
  return (
    <li className="flex flex-col items-center rounded-3xl bg-white p-6 text-center shadow-md">
      <span className="inline-flex size-14 items-center justify-center rounded-2xl bg-primary-soft text-primary-strong">
        {icon}
      </span>
      <h3 className="mt-3 text-2xl font-bold">{title}</h3>
      <div className="mt-2 text-xl">{children || <Masked />}</div>
      <p className="mt-2 text-lg text-muted">{note}</p>
    </li>
  );
}
