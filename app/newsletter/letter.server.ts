/**
 * A letter as its readers get it: the Markdown the owner wrote made into
 * HTML (GitHub-flavoured Markdown; raw HTML in the Markdown is dropped, not
 * passed through), typeset the Swiss French way, then laid out for mail
 * clients: one 600-pixel column, 19 px text, inline styles only (Gmail and
 * Outlook ignore style sheets), links underlined, the sender's identity
 * and the unsubscribe link at the bottom (UWG art. 3 al. 1 let. o asks
 * both). The plain-text part is the Markdown itself, which reads as text.
 *
 * - `renderLetterBody(markdown)` → the body's HTML (the desk's preview and
 *   the public archive show it too);
 * - `letterMail({ subject, markdown, unsubscribeUrl, archiveUrl, siteUrl })`
 *   → `{ subject, text, html, headers }` with the RFC 8058 one-click
 *   unsubscribe headers;
 * - `confirmationMail({ confirmUrl, siteUrl })` → the double opt-in's mail.
 */
import rehypeSanitize from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { identity } from "~/content/identity";
import { escapeHtml, oneLine } from "~/mail/render.server";
import { siteName } from "~/seo/meta";
import { typeset } from "~/utils/typography";

interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

const FONT = "font-family: Verdana, Arial, Helvetica, sans-serif;";

/**
 * Inline styles by element, for mail clients. They also lay out the desk's
 * preview and the public archive, whose style sheet resets headings and
 * lists: hence the weight of headings and the lists' markers, spelled out.
 */
const STYLES: Record<string, string> = {
  h1: `${FONT} font-size: 28px; font-weight: bold; line-height: 1.3; margin: 28px 0 12px; color: #111827;`,
  h2: `${FONT} font-size: 24px; font-weight: bold; line-height: 1.3; margin: 28px 0 12px; color: #111827;`,
  h3: `${FONT} font-size: 21px; font-weight: bold; line-height: 1.3; margin: 24px 0 8px; color: #111827;`,
  p: `${FONT} font-size: 19px; line-height: 1.6; margin: 0 0 16px; color: #1f2937;`,
  li: `${FONT} font-size: 19px; line-height: 1.6; margin: 0 0 8px; color: #1f2937;`,
  ul: "margin: 0 0 16px; padding-left: 28px; list-style: disc;",
  ol: "margin: 0 0 16px; padding-left: 28px; list-style: decimal;",
  a: "color: #1d4ed8; text-decoration: underline;",
  blockquote: "margin: 0 0 16px; padding: 8px 16px; border-left: 4px solid #1d4ed8; background: #eff6ff;",
  strong: "font-weight: bold;",
  img: "max-width: 100%; height: auto;",
};

/** Typesets text (not code) and adds the inline styles. */
function rehypeLetter() {
  const visit = (node: HastNode) => {
    if (node.type === "text" && node.value !== undefined) node.value = typeset(node.value);
    if (node.tagName && STYLES[node.tagName]) node.properties = { ...node.properties, style: STYLES[node.tagName] };
    if (node.tagName !== "code" && node.tagName !== "pre") node.children?.forEach(visit);
  };
  return visit;
}

/**
 * Markdown to HTML, then GitHub's sanitising rules (`rehype-sanitize`'s
 * default schema: links only to http, https, mailto and the like, so a
 * `javascript:` or `data:` address written in the Markdown loses its
 * `href`, issue 24), then the letter's typesetting and styles.
 */
const pipeline = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize)
  .use(rehypeLetter)
  .use(rehypeStringify);

/** The HTML of a letter's body (no raw HTML from the Markdown). */
export function renderLetterBody(markdown: string): string {
  return String(pipeline.processSync(markdown));
}

const senderLine = () =>
  `${identity.businessName}, ${identity.address.street}, ${identity.address.postalCode} ${identity.address.locality}`;

/** The letter's HTML document around `body`. */
function layout({ title, body, footer }: { title: string; body: string; footer: string }): string {
  return `<!doctype html>
<html lang="fr-CH"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin: 0; padding: 0; background: #f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background: #f3f4f6;"><tr><td align="center" style="padding: 24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width: 600px; width: 100%; background: #ffffff; border-radius: 12px;">
<tr><td style="padding: 24px 28px 8px; ${FONT} font-size: 17px; font-weight: bold; color: #1d4ed8;">${escapeHtml(siteName)}</td></tr>
<tr><td style="padding: 8px 28px 16px;">${body}</td></tr>
<tr><td style="padding: 16px 28px 24px; border-top: 2px solid #e5e7eb; ${FONT} font-size: 15px; line-height: 1.5; color: #4b5563;">${footer}</td></tr>
</table></td></tr></table></body></html>`;
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
  const footer = [
    `Vous recevez cette lettre parce que vous vous êtes abonné(e) sur le site ${escapeHtml(siteName)}.`,
    `<a href="${escapeHtml(unsubscribeUrl)}" style="${STYLES.a}">Se désabonner</a> (un clic suffit) · <a href="${escapeHtml(archiveUrl)}" style="${STYLES.a}">Lire cette lettre sur le site</a>`,
    escapeHtml(senderLine()),
  ]
    .map((line) => `<p style="margin: 0 0 8px;">${line}</p>`)
    .join("");
  return {
    subject: title,
    text: `${markdown.trim()}\n\n-- \nVous recevez cette lettre parce que vous vous êtes abonné(e) sur le site ${siteName}.\nSe désabonner (un clic suffit) : ${unsubscribeUrl}\nLire cette lettre sur le site : ${archiveUrl}\n${senderLine()}\n`,
    html: layout({ title, body: renderLetterBody(markdown), footer }),
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
  const body = [
    ...paragraphs.map((text) => `<p style="${STYLES.p}">${escapeHtml(typeset(text))}</p>`),
    `<p style="${STYLES.p}"><a href="${escapeHtml(confirmUrl)}" style="display: inline-block; padding: 14px 24px; background: #1d4ed8; color: #ffffff; ${FONT} font-size: 19px; font-weight: bold; text-decoration: none; border-radius: 10px;">Confirmer mon abonnement</a></p>`,
  ].join("");
  return {
    subject,
    text: `${paragraphs.join("\n\n")}\n\nConfirmer mon abonnement : ${confirmUrl}\n\n-- \n${senderLine()}\n`,
    html: layout({ title: subject, body, footer: `<p style="margin: 0;">${escapeHtml(senderLine())}</p>` }),
  };
}
