/**
 * `/mentions-legales`: who runs the site (LCD art. 3 al. 1 let. s), the
 * hosting provider, responsibility for content and links, copyright.
 * Prerendered, not indexed; the words are in `app/content/legal.ts`.
 */
import { LegalPageView } from "~/components/legal-page";
import { legalNotice } from "~/content/legal";
import { encodedContactChannels } from "~/utils/contact-channels.server";
import { revealLabels } from "~/utils/home-content.server";
import { pageMeta } from "~/utils/meta";
import type { Route } from "./+types/mentions-legales";

export function loader() {
  return { channels: encodedContactChannels(), revealLabels: revealLabels() };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: legalNotice.title, description: legalNotice.description, noindex: true });

export default function MentionsLegales({ loaderData }: Route.ComponentProps) {
  return <LegalPageView page={legalNotice} channels={loaderData.channels} revealLabels={loaderData.revealLabels} />;
}
