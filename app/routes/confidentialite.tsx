/**
 * `/confidentialite`: the privacy notice (LPD art. 19): controller, data
 * collected and why, retention, recipients, no cookies, server log, YouTube,
 * the visitor's rights. Prerendered, not indexed; the words are in
 * `app/content/legal.ts`.
 */
import { LegalPageView } from "~/components/legal-page";
import { privacyNotice } from "~/content/legal";
import { encodedContactChannels } from "~/utils/contact-channels.server";
import { revealLabels } from "~/utils/home-content.server";
import { pageMeta } from "~/utils/meta";
import type { Route } from "./+types/confidentialite";

export function loader() {
  return { channels: encodedContactChannels(), revealLabels: revealLabels() };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: privacyNotice.title, description: privacyNotice.description, noindex: true });

export default function Confidentialite({ loaderData }: Route.ComponentProps) {
  return <LegalPageView page={privacyNotice} channels={loaderData.channels} revealLabels={loaderData.revealLabels} />;
}
