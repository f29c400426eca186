/**
 * A letter as its readers get it: the Markdown the owner wrote made into
 * HTML (GitHub-flavoured Markdown; raw HTML in the Markdown is dropped, not
 * passed through), typeset the Swiss French way, then laid out in the one
 * layout of visitor mails (`app/mail/layout.server.ts`: one 600-pixel
 * column, 19 px text, inline styles only), with the unsubscribe link, the
 * owner's telephone and the sender's identity at the bottom (UWG art. 3
 * al. 1 let. o asks the last two). The plain-text part is the Markdown
 * itself, which reads as text.
 *
 * - `renderLetterBody(markdown)` → the body's HTML (the desk's preview and
 *   the public archive show it too);
 * - `letterMail({ subject, markdown, unsubscribeUrl, archiveUrl, siteUrl })`
 *   → `{ subject, text, html, headers }` with the RFC 8058 one-click
 *   unsubscribe headers;
 * - `confirmationMail({ confirmUrl, siteUrl })` → the double opt-in's mail.
 */
import { mailButton, mailDocument, MAIL_STYLES, mailParagraph, replyText, visitorFooter } from "~/mail/layout.server";
import { escapeHtml, oneLine } from "~/mail/render.server";
import { siteName } from "~/content/site-name";
import { markdownRenderer, type HastNode } from "~/utils/markdown.server";

/** Adds the mail's inline styles (the pipeline typesets the text). */
function rehypeLetterStyles() {
  const visit = (node: HastNode) => {
    if (node.tagName && MAIL_STYLES[node.tagName])
      node.properties = { ...node.properties, style: MAIL_STYLES[node.tagName] };
    if (node.tagName !== "code" && node.tagName !== "pre") node.children?.forEach(visit);
  };
  return visit;
}

/**
 * The site's Markdown pipeline (app/utils/markdown.server.ts: raw HTML
 * dropped, only web, mail, telephone and relative addresses kept, issue 24),
 * then the letter's styles.
 */
const renderMarkdown = markdownRenderer([rehypeLetterStyles]);

/** The HTML of a letter's body (no raw HTML from the Markdown). */
export function renderLetterBody(markdown: string): string {
  return renderMarkdown(markdown);
}

export interface LetterMail {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** A letter to one subscriber, with their own unsubscribe link. */
export function letterMail({
  subject,
  markdown,
  unsubscribeUrl,
  archiveUrl,
}: {
  subject: string;
  markdown: string;
  unsubscribeUrl: string;
  archiveUrl: string;
}): LetterMail {
  const title = oneLine(subject);
  const footer = visitorFooter([
    `Vous recevez cette lettre parce que vous vous êtes abonné(e) sur le site ${escapeHtml(siteName)}.`,
    `<a href="${escapeHtml(unsubscribeUrl)}" style="${MAIL_STYLES.a}">Se désabonner</a> (un clic suffit) · <a href="${escapeHtml(archiveUrl)}" style="${MAIL_STYLES.a}">Lire cette lettre sur le site</a>`,
  ]);
  return {
    subject: title,
    text: `${markdown.trim()}\n\n-- \nVous recevez cette lettre parce que vous vous êtes abonné(e) sur le site ${siteName}.\nSe désabonner (un clic suffit) : ${unsubscribeUrl}\nLire cette lettre sur le site : ${archiveUrl}\n${replyText()}\n`,
    html: mailDocument({ title, body: renderLetterBody(markdown), footer }),
    headers: {
      // RFC 2369 and RFC 8058: mail clients show an "unsubscribe" button that POSTs to the address.
      "List-Unsubscribe": `<${unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

/** The mail that asks to confirm a subscription (double opt-in). */
export function confirmationMail({ confirmUrl }: { confirmUrl: string }): Omit<LetterMail, "headers"> {
  const subject = "Confirmez votre abonnement à la lettre d’information";
  const intro = `Bonjour,\n\nVous avez demandé à recevoir la lettre d’information de ${siteName} : une lettre par mois, avec des conseils pratiques et des mises en garde contre les arnaques.`;
  const action =
    "Pour confirmer, cliquez sur le lien ci-dessous (il reste valable 7 jours). Si vous n’avez rien demandé, ignorez simplement ce message : vous ne recevrez rien.";
  const paragraphs = [intro, action].flatMap((text) => text.split("\n\n"));
  const body = [...paragraphs.map(mailParagraph), mailButton("Confirmer mon abonnement", confirmUrl)].join("");
  return {
    subject,
    text: `${paragraphs.join("\n\n")}\n\nConfirmer mon abonnement : ${confirmUrl}\n\n-- \n${replyText()}\n`,
    html: mailDocument({ title: subject, body, footer: visitorFooter() }),
  };
}
