/**
 * `/coordonnees`: the contact section with the details shown, rendered by the
 * server on request (never prerendered, not indexed). It is where "Révéler"
 * leads when JavaScript is off.
 */
import { ContactSection } from "~/home/sections/contact";
import { encodedContactChannels } from "~/contact/channels.server";
import { contactContent } from "~/home/content.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import { getSiteSettings } from "~/settings/site.server";
import type { Route } from "./+types/coordonnees";
import { cachedPage } from "~/utils/render-cache";

export async function loader({ context, request }: Route.LoaderArgs) {
  const settings = await getSiteSettings(context);
  return {
    channels: encodedContactChannels(settings.identity),
    content: contactContent(settings),
    meta: pageMeta(context, request, {
      title: "Coordonnées",
      description: "Téléphone, e-mail, WhatsApp, horaires et zones d’intervention.",
      noindex: true,
    }),
  };
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: [] });

export default function Coordonnees({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1 className="sr-only">Coordonnées</h1>
      <ContactSection content={loaderData.content} channels={loaderData.channels} initiallyRevealed />
    </>
  );
}
