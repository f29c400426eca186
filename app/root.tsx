/**
 * The document shell: `<html lang="fr-CH">`, head links, skip link, header,
 * main, footer, tooltip provider, the contact dialog's provider (which also
 * renders the toast area, once the dialog is first wanted), and the error
 * boundary (404 page and the generic error page).
 */
import fontUrl from "@fontsource-variable/atkinson-hyperlegible-next/files/atkinson-hyperlegible-next-latin-wght-normal.woff2?url";
import { useEffect, type ReactNode } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import { ContactDialogLink, ContactDialogProvider } from "./contact/dialog";
import { PhoneLink, PhoneRevealForm } from "./contact/phone-reveal";
import { UnavailablePage } from "./contact/unavailable-page";
import { isDeskPage } from "~/desk/chrome";
import { Footer, type FooterWords } from "~/components/footer";
import { Header, type HeaderContact, type HeaderWords } from "~/components/header";
import { encodedContactChannels } from "~/contact/channels.server";
import { buttonVariants } from "~/components/ui/button";
import { TooltipProvider } from "~/components/ui/tooltip";
import { blogSection } from "~/content/home";
import { identity } from "~/content/identity";
import { callbackCta, contactCta, helpLinks, legalLinks, navItems } from "~/content/navigation";
import { cantonNames } from "~/content/zones";
import { getSiteSettings } from "~/settings/site.server";
import { useHydrated } from "~/utils/use-hydrated";
import { metaOf } from "~/seo/meta";
import { siteShareImageFor } from "~/seo/share-image.server";
import { siteName } from "~/content/site-name";
import { titleTags } from "~/utils/meta";
import type { Route } from "./+types/root";
import stylesUrl from "./app.css?url";
import { renderHintsContext } from "~/context.server";
import { refusedAnswers } from "~/utils/database-down.server";
import { unavailableWords } from "~/utils/unavailable";

/** The contact feature's pieces in the header (app/components/header.tsx takes them, importing no feature). */
const HEADER_CONTACT: HeaderContact = { DialogLink: ContactDialogLink, RevealForm: PhoneRevealForm, PhoneLink };

export const links: Route.LinksFunction = () => [
  { rel: "preload", href: fontUrl, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "stylesheet", href: stylesUrl },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
];

/**
 * What the root loader gives every page: the site's name (for error pages'
 * titles), the feed link's title, and the header's and footer's words (all
 * from `app/content/`, read on the server so that they stay out of the
 * JavaScript; decision 007).
 */
export interface RootData {
  siteName: string;
  /** Title of the `<link rel="alternate">` to the RSS feed. */
  feedTitle: string;
  header: HeaderWords;
  footer: FooterWords;
  /** The path of the share image of every page without one of its own (`loaderMeta` puts it in their tags). */
  shareImagePath: string;
}

/**
 * Marks `<html data-hydrated="true">` once React has taken over and the
 * parts that differ without JavaScript (the header's menu button) have
 * switched: the same transition switches them all (`useHydrated`). Browser
 * tests wait for it. Its own component, so that only it re-renders.
 */
function HydrationMarker() {
  const hydrated = useHydrated();
  useEffect(() => {
    if (hydrated) document.documentElement.dataset.hydrated = "true";
  }, [hydrated]);
  return null;
}

/**
 * The document. Without the root loader's data (an error in the root loader
 * itself), it renders the page without header, footer and feed link.
 */
export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  // The owner's desk has its own header (app/routes/admin/layout.tsx), no public header or footer.
  const desk = isDeskPage(useMatches());
  const chrome = data && !desk;
  return (
    <html lang="fr-CH">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1e40af" />
        <Meta />
        <Links />
        {data ? <link rel="alternate" type="application/rss+xml" title={data.feedTitle} href="/blog/rss.xml" /> : null}
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#contenu"
          className="sr-only z-50 rounded-lg bg-primary px-5 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-4 focus:left-4"
        >
          Aller au contenu
        </a>
        <TooltipProvider delayDuration={700} skipDelayDuration={300}>
          <ContactDialogProvider>
            {chrome ? <Header words={data.header} contact={HEADER_CONTACT} /> : null}
            <main id="contenu" tabIndex={-1} className={`flex-1 focus:outline-none ${desk ? "" : "pt-20"}`}>
              {children}
            </main>
            {chrome ? <Footer words={data.footer} /> : null}
          </ContactDialogProvider>
        </TooltipProvider>
        <HydrationMarker />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/**
 * `SITE_URL`, the site's name and share image, for every page's title,
 * canonical URL and share tags (see `pageMeta`); the feed link's title; the
 * header's and footer's words.
 */
export async function loader({ context }: Route.LoaderArgs): Promise<RootData> {
  const [{ identity: owner }, shareImage] = await Promise.all([getSiteSettings(context), siteShareImageFor(context)]);
  // The footer's © year changes on the first of January.
  context.get(renderHintsContext)?.validUntil(new Date(new Date().getFullYear() + 1, 0, 1));
  const brand = { line1: identity.brand.line1, line2: identity.brand.line2 };
  return {
    siteName,
    feedTitle: `${blogSection.title} | ${siteName}`,
    header: {
      brand,
      navItems,
      contactLabel: contactCta.label,
      channels: encodedContactChannels(owner),
      callback: callbackCta,
    },
    footer: { brand, name: owner.name, cantons: cantonNames, navItems, legalLinks, helpLinks },
    shareImagePath: shareImage.path,
  };
}

/** Every 503 answer says when to try again (`Retry-After`); one refused during a database outage is counted. */
export const middleware: Route.MiddlewareFunction[] = [refusedAnswers];

export default function App() {
  return <Outlet />;
}

/**
 * The root's own metadata: none on a page (each route's loader makes its
 * own), the tags a route's 404 carries, else an error page's title.
 */
export const meta: Route.MetaFunction = ({ data, error }) =>
  error
    ? (metaOf(undefined, error) ??
      titleTags(
        data?.siteName,
        isRouteErrorResponse(error) && error.status === 404
          ? "Page introuvable"
          : isRouteErrorResponse(error) && error.status === 503
            ? unavailableWords.title
            : "Erreur",
        "Cette page n’a pas pu être affichée.",
        true,
      ))
    : [];

/** The spec's 404 page (in English, as the first site had it): logs the path to the console. */
export function NotFound() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.warn("404 Error: User attempted to access non-existent route:", pathname);
  }, [pathname]);
  return (
    <div lang="en" className="mx-auto flex max-w-3xl flex-col items-center px-4 py-24 text-center">
      <p className="text-7xl font-bold text-primary">404</p>
      <h1 className="mt-4 text-4xl font-bold">Oops! Page not found</h1>
      <a href="/" className={`${buttonVariants({ size: "large" })} mt-8`}>
        Return to Home
      </a>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  // The database does not answer (app/utils/database-down.server.ts): the French 503 page, with the telephone.
  if (isRouteErrorResponse(error) && error.status === 503) return <UnavailablePage />;
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : null;
  return (
    <div lang="en" className="mx-auto max-w-3xl px-4 py-24 text-center">
      <h1 className="text-4xl font-bold">Unexpected Application Error!</h1>
      <p lang="fr" className="mt-5 text-xl text-muted">
        Une erreur inattendue s’est produite. Veuillez réessayer dans un instant.
      </p>
      <a lang="fr" href="/" className={`${buttonVariants({ size: "large" })} mt-8`}>
        Retour à l’accueil
      </a>
      {detail ? (
        <pre className="mt-8 overflow-auto rounded-lg bg-ink p-4 text-left text-base text-white">{detail}</pre>
      ) : null}
    </div>
  );
}
