/**
 * JSON-LD (schema.org, typed with `schema-dts`) made on the server from the
 * owner's settings, `app/content/` and the articles, for `pageMeta` to render
 * as a data block (never run, so the CSP needs no exception): the business
 * and its courses for `/`, an article and its breadcrumb, the FAQ. The
 * telephone and e-mail are left out on purpose: the site never publishes
 * them as plain text (decision 001).
 */
import type {
  AdministrativeArea,
  BlogPosting,
  BreadcrumbList,
  Course,
  FAQPage,
  Graph,
  ItemList,
  OpeningHoursSpecification,
  ProfessionalService,
  Question,
} from "schema-dts";
import type { ArticleSummary } from "~/blog/types";
import { courses } from "~/content/courses";
import { hero } from "~/content/home";
import { navItems } from "~/content/navigation";
import { openingHoursOf } from "~/content/hours";
import { zonesOf } from "~/content/zones";
import type { SiteSettings } from "~/settings/schema";
import { absoluteUrl, type ShareImage } from "~/seo/meta";
import type { StructuredData } from "~/utils/meta";
import { siteName } from "~/content/site-name";
import { siteShareImage } from "~/seo/share-image.server";

/**
 * A schema-dts graph as the plain JSON React Router renders (the types are
 * checked where the graph is built; loader data and `meta` only carry it).
 */
const asJson = (graph: Graph) => graph as unknown as StructuredData;

/** The business's node id, so that other nodes refer to it (`provider`, `publisher`). */
export const businessId = (siteUrl: string) => `${siteUrl}/#entreprise`;

/** ISO 3166-1 alpha-2 codes of the countries `identity.address.country` may name. */
const COUNTRY_CODES: Record<string, string> = { Suisse: "CH", France: "FR" };

/** The cantons served (`app/content/zones.ts`), each an `AdministrativeArea` (ISO 3166-2 code in `identifier`). */
function cantons(settings: Pick<SiteSettings, "zones">): AdministrativeArea[] {
  return zonesOf(settings.zones).map((zone) => ({
    "@type": "AdministrativeArea",
    name: zone.canton,
    identifier: `CH-${zone.code}`,
  }));
}

/** "CHF 55–95": the lowest and highest of `prices`, the services' prices (Réglages). */
export function priceRange(prices: number[]): string {
  if (prices.length === 0) throw new Error("priceRange: no service has a price");
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return low === high ? `CHF ${low}` : `CHF ${low}–${high}`;
}

/** The open rows of `app/content/hours.ts` (closed days are left out, as schema.org expects). */
function openingHoursSpecification(settings: Pick<SiteSettings, "hours">): OpeningHoursSpecification[] {
  return openingHoursOf(settings.hours).flatMap((row) =>
    row.opens && row.closes
      ? [{ "@type": "OpeningHoursSpecification", dayOfWeek: row.dayOfWeek, opens: row.opens, closes: row.closes }]
      : [],
  );
}

/** The structured data of `/`: the business (with the owner's `settings`, Réglages) and its courses. */
export function businessStructuredData(siteUrl: string, settings: SiteSettings): StructuredData {
  const { identity } = settings;
  const home = absoluteUrl(siteUrl, "/");
  const business: ProfessionalService = {
    "@type": "ProfessionalService",
    "@id": businessId(siteUrl),
    name: siteName,
    legalName: identity.businessName,
    url: home,
    image: `${siteUrl}${siteShareImage.path}`,
    description: hero.intro,
    founder: { "@type": "Person", name: identity.name },
    address: {
      "@type": "PostalAddress",
      streetAddress: identity.address.street,
      postalCode: identity.address.postalCode,
      addressLocality: identity.address.locality,
      addressCountry: COUNTRY_CODES[identity.address.country] ?? identity.address.country,
    },
    areaServed: cantons(settings),
    openingHoursSpecification: openingHoursSpecification(settings),
    priceRange: priceRange(Object.values(settings.prices)),
    currenciesAccepted: "CHF",
    contactPoint: {
      "@type": "ContactPoint",
      contactType: "customer service",
      url: absoluteUrl(siteUrl, "/contact"),
      areaServed: cantons(settings),
      availableLanguage: "French",
    },
  };
  const courseList: ItemList = {
    "@type": "ItemList",
    name: "Cours",
    itemListElement: courses.map((course, index) => ({
      "@type": "ListItem",
      position: index + 1,
      item: {
        "@type": "Course",
        name: course.title,
        description: course.description,
        url: `${home}#cours`,
        inLanguage: "fr-CH",
        educationalLevel: course.level,
        provider: { "@id": businessId(siteUrl) },
      } satisfies Course,
    })),
  };
  return asJson({ "@context": "https://schema.org", "@graph": [business, courseList] });
}

/** The structured data of an article's page: its `BlogPosting` and its breadcrumb trail. */
export function articleStructuredData(article: ArticleSummary, siteUrl: string, image: ShareImage): StructuredData {
  const url = absoluteUrl(siteUrl, `/blog/${article.slug}`);
  const label = (section: string) => navItems.find((item) => item.section === section)?.label ?? section;
  const posting: BlogPosting = {
    "@type": "BlogPosting",
    headline: article.title,
    description: article.excerpt,
    datePublished: article.date,
    // The front matter's `updated`, else the article counts as modified when published.
    dateModified: article.updated ?? article.date,
    author: { "@type": "Person", name: article.author },
    image: `${siteUrl}${image.path}`,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    url,
    inLanguage: "fr-CH",
    articleSection: article.category,
    publisher: {
      "@type": "ProfessionalService",
      "@id": businessId(siteUrl),
      name: siteName,
      url: absoluteUrl(siteUrl, "/"),
    },
  };
  const breadcrumb: BreadcrumbList = {
    "@type": "BreadcrumbList",
    itemListElement: [
      { name: label("accueil"), item: absoluteUrl(siteUrl, "/") },
      { name: label("blog"), item: absoluteUrl(siteUrl, "/blog") },
      { name: article.title, item: url },
    ].map((crumb, index) => ({ "@type": "ListItem", position: index + 1, ...crumb })),
  };
  return asJson({ "@context": "https://schema.org", "@graph": [posting, breadcrumb] });
}

/**
 * The structured data of `/questions`: a `FAQPage` whose `mainEntity` is each
 * question with its accepted answer (the answer's paragraphs as plain text).
 * Google's guide: https://developers.google.com/search/docs/appearance/structured-data/faqpage
 */
export function faqStructuredData(
  entries: readonly { question: string; answer: readonly string[] }[],
  siteUrl: string,
): StructuredData {
  const page: FAQPage = {
    "@type": "FAQPage",
    url: absoluteUrl(siteUrl, "/questions"),
    inLanguage: "fr-CH",
    mainEntity: entries.map((entry): Question => ({
      "@type": "Question",
      name: entry.question,
      acceptedAnswer: { "@type": "Answer", text: entry.answer.join(" ") },
    })),
  };
  return asJson({ "@context": "https://schema.org", "@graph": [page] });
}
