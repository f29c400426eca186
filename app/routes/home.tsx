/**
 * `/`: the home page, nine sections in spec order, rendered on request:
 * its course cards show each course's next sessions with the places left,
 * live (docs/decisions/017-home-rendered-on-request.md). The sections'
 * words come from the loader (`homeContent()`): they travel in the HTML as
 * data, not in the page's JavaScript. When the database does not answer,
 * the page is still served, its cards without dates (logged).
 */
import { AboutSection } from "~/home/sections/about";
import { AudienceSection } from "~/home/sections/audience";
import { BlogSection } from "~/home/sections/blog";
import { ContactSection } from "~/home/sections/contact";
import { CoursesSection } from "~/home/sections/courses";
import { EngagementSection } from "~/home/sections/engagement";
import { GuideSection } from "~/home/sections/guide";
import { HeroSection } from "~/home/sections/hero";
import { ServicesSection } from "~/home/sections/services";
import { articleCards, featuredCard, readArticles } from "~/blog/store.server";
import { homeArticles, HOME_ARTICLES } from "~/blog/select";
import { encodedContactChannels } from "~/contact/channels.server";
import { homeContent } from "~/home/content.server";
import { loaderMeta } from "~/seo/meta";
import { siteName } from "~/content/site-name";
import { pageMeta } from "~/seo/page-meta.server";
import { businessStructuredData } from "~/seo/structured-data.server";
import type { SiteSettings } from "~/settings/schema";
import { getSiteSettings } from "~/settings/site.server";
import { nextSessionsByCourse } from "~/courses/public.server";
import { errorFields } from "~/db/errors.server";
import { slotPictures } from "~/pictures/pictures.server";
import type { Route } from "./+types/home";
import { cachedPage } from "~/utils/render-cache";
import { unlessDatabaseDown } from "~/utils/database-down.server";
import { settingsContext, dbContext, loggerContext, renderHintsContext, clockContext } from "~/context.server";

/**
 * The course cards' next sessions, or null when the database does not answer
 * (logged without data; that page is not kept in the render cache, which
 * would show it without dates until the next change of a session).
 */
async function cardSessions(context: Route.LoaderArgs["context"]) {
  try {
    const read = await unlessDatabaseDown(context, () =>
      nextSessionsByCourse(context.get(dbContext), context.get(clockContext).now(), 2, context.get(renderHintsContext)),
    );
    if (!read.down) return read.value;
  } catch (error) {
    context.get(loggerContext).error({ err: errorFields(error) }, "home page: course sessions unavailable");
  }
  // A database that does not answer is logged once for the whole outage (app/db/outage.server.ts).
  context.get(renderHintsContext)?.noStore();
  return null;
}

/**
 * The home page's words and pictures, with the hero and portrait pictures the
 * owner uploaded in the desk in place of the repository's (the repository's
 * when the database does not answer: logged, not kept in the render cache).
 */
async function content(context: Route.LoaderArgs["context"], settings: SiteSettings) {
  const words = homeContent(settings);
  let uploaded: Awaited<ReturnType<typeof slotPictures>> = {};
  try {
    const read = await unlessDatabaseDown(context, () => slotPictures(context.get(dbContext)));
    if (read.down) context.get(renderHintsContext)?.noStore();
    else uploaded = read.value;
  } catch (error) {
    context.get(loggerContext).error({ err: errorFields(error) }, "home page: uploaded pictures unavailable");
    context.get(renderHintsContext)?.noStore();
  }
  return {
    ...words,
    hero: { ...words.hero, picture: uploaded.hero ?? words.hero.picture },
    guide: { ...words.guide, picture: uploaded.portrait ?? words.guide.picture },
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const settings = await getSiteSettings(context);
  return {
    sessions: await cardSessions(context),
    channels: encodedContactChannels(settings.identity),
    articles: await readArticles(
      context,
      "home",
      async (db, now) => {
        const featured = await featuredCard(db, now);
        return homeArticles([
          ...(featured ? [featured] : []),
          ...(await articleCards(db, now, { limit: HOME_ARTICLES })),
        ]);
      },
      { orEmpty: [] },
    ),
    content: await content(context, settings),
    meta: pageMeta(context, request, {
      title: siteName,
      description:
        "Cours d’informatique et de smartphone pour seniors, à domicile, en petit groupe ou à distance, dans les cantons de Vaud, Genève et Fribourg. Patience, mots simples, tarifs clairs.",
      structuredData: businessStructuredData(context.get(settingsContext).SITE_URL, settings),
    }),
  };
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: ["courses", "articles", "pictures"] });

export default function Home({ loaderData }: Route.ComponentProps) {
  const { content } = loaderData;
  return (
    <>
      <HeroSection hero={content.hero} statistics={content.statistics} />
      <GuideSection guide={content.guide} />
      <AudienceSection content={content.audience} />
      <ServicesSection content={content.services} />
      <EngagementSection content={content.engagement} />
      <CoursesSection content={content.courses} sessions={loaderData.sessions} />
      <AboutSection about={content.about} statistics={content.statistics} />
      <BlogSection content={content.blog} articles={loaderData.articles} />
      <ContactSection content={content.contact} channels={loaderData.channels} />
    </>
  );
}
