/**
 * Lays out a legal page of `app/content/legal.ts` (`/mentions-legales`,
 * `/confidentialite`): the `<h1>` and its introduction, the "En bref" box
 * and the table of contents when the page has them, one `<h2>` section per
 * entry, and the date of the last update. The operator's card shows the
 * name, business name, IDE, postal address and the e-mail address behind
 * "Révéler" (`channels` is the loader's `encodedContactChannels()`).
 */
import { Link } from "react-router";
import type { Provider, RichText } from "~/content/legal";
import type { LegalPageContent } from "./content.server";
import { RevealableEmail } from "~/contact/reveal";

export function LegalPageView({ content, channels }: { content: LegalPageContent; channels: string }) {
  const { page, labels, lastUpdated } = content;
  return (
    <article className="mx-auto max-w-3xl px-4 pt-8 pb-16 sm:px-6 sm:pt-12">
      <header>
        <h1 className="text-4xl font-bold sm:text-5xl">{page.title}</h1>
        <p className="mt-5 text-xl text-muted">{page.intro}</p>
      </header>

      {page.summary ? (
        <section aria-labelledby="en-bref" className="mt-8 rounded-3xl bg-secondary-soft p-6">
          <h2 id="en-bref" className="text-2xl font-bold">
            {page.summary.title}
          </h2>
          <ul className="mt-3 list-disc space-y-2 pl-6 marker:text-secondary-strong">
            {page.summary.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ) : null}

      {page.tocTitle ? (
        <nav aria-labelledby="sommaire" className="mt-8 rounded-3xl border-2 border-line p-6">
          <h2 id="sommaire" className="text-2xl font-bold">
            {page.tocTitle}
          </h2>
          <ol className="mt-3 list-decimal space-y-1 pl-7 marker:font-semibold">
            {page.sections.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="inline-block py-1 font-semibold text-primary underline underline-offset-4 hover:text-primary-strong"
                >
                  {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}

      <div className="prose prose-lg mt-4 max-w-none text-ink prose-headings:text-ink prose-h2:mt-12 prose-h2:mb-4 prose-p:text-ink prose-a:text-primary prose-li:my-1 prose-li:text-ink">
        {page.sections.map((section) => (
          <section key={section.id} aria-labelledby={section.id}>
            <h2 id={section.id}>{section.title}</h2>
            {section.blocks.map((block, index) => {
              const key = `${section.id}-${index}`;
              if (block.kind === "operator")
                return <OperatorCard key={key} content={content} channels={channels} idPrefix={key} />;
              if (block.kind === "providers")
                return <Providers key={key} items={block.items} countryLabel={labels.country} />;
              if (block.kind === "list")
                return (
                  <ul key={key}>
                    {block.items.map((item, itemIndex) => (
                      <li key={itemIndex}>
                        <Rich text={item} />
                      </li>
                    ))}
                  </ul>
                );
              return (
                <p key={key}>
                  <Rich text={block.text} />
                </p>
              );
            })}
          </section>
        ))}
      </div>

      <p className="mt-12 border-t border-line pt-6 text-muted">
        {labels.lastUpdated} <time dateTime={lastUpdated.iso}>{lastUpdated.label}</time>
      </p>
    </article>
  );
}

/** Running text: words, site links (client navigation, or an anchor on the page) and links to other sites. */
function Rich({ text }: { text: RichText }) {
  if (typeof text === "string") return text;
  return text.map((part, index) => {
    if (typeof part === "string") return part;
    if (part.href.startsWith("/"))
      return (
        <Link key={index} to={part.href}>
          {part.text}
        </Link>
      );
    return (
      <a key={index} href={part.href}>
        {part.text}
      </a>
    );
  });
}

/** Who runs the site: name, business name, IDE, postal address, e-mail behind "Révéler". */
function OperatorCard({
  content: { operator, labels, revealLabels },
  channels,
  idPrefix,
}: {
  content: LegalPageContent;
  channels: string;
  idPrefix: string;
}) {
  const { address } = operator;
  return (
    <div className="not-prose my-6 rounded-3xl bg-primary-soft/60 p-6 text-lg">
      <p className="text-xl font-bold">{operator.name}</p>
      <p>{operator.businessName}</p>
      <address className="mt-2 not-italic">
        {address.street}
        <br />
        {address.postalCode} {address.locality}
        <br />
        {address.country}
      </address>
      {operator.uid ? (
        <p className="mt-2">
          <span className="font-semibold">{labels.uid}&nbsp;: </span>
          <span className="inline-block">{operator.uid}</span>
        </p>
      ) : null}
      <div className="mt-4 border-t border-primary/20 pt-4">
        <RevealableEmail
          channels={channels}
          label={labels.email}
          mask={labels.emailMask}
          maskLabel={labels.emailHidden}
          hints={labels.revealHints}
          labels={revealLabels}
          idPrefix={idPrefix}
        />
      </div>
    </div>
  );
}

/** Providers: name, what it does, postal address, website and the country where it processes the data. */
function Providers({
  items,
  countryLabel,
}: {
  items: { provider: Provider; role?: string }[];
  /** "Données traitées en". */
  countryLabel: string;
}) {
  return (
    <ul className="not-prose my-6 space-y-4">
      {items.map(({ provider, role }) => (
        <li key={provider.name} className="rounded-3xl border-2 border-line p-5 text-lg">
          <p className="text-xl font-bold">{provider.name}</p>
          {role ? <p className="mt-1">{role}</p> : null}
          <p className="mt-2 text-muted">{provider.address}</p>
          <p>
            <a
              href={provider.website}
              className="font-semibold break-all text-primary underline underline-offset-4 hover:text-primary-strong"
            >
              {provider.website.replace(/^https?:\/\//, "")}
            </a>
          </p>
          <p className="mt-2">
            <span className="font-semibold">{countryLabel}&nbsp;: </span>
            {provider.country}
          </p>
        </li>
      ))}
    </ul>
  );
}
