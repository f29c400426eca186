/**
 * The one layout of every mail a visitor receives (newsletter letters and
 * confirmation, booking confirmations, reminders, cancellations): a single
 * 600-pixel column on a grey background, 19 px text with line height 1.6,
 * inline styles only (Gmail and Outlook ignore style sheets), links
 * underlined, big buttons, the site's name on top and a footer that says how
 * to reach the owner: "reply to this mail" (every visitor mail has Reply-To
 * the owner's address, `enqueueMail`) and the owner's telephone
 * (Réglages), then the sender's identity (UWG art. 3 al. 1 let. o asks it
 * of letters): merge tags the outbox fills in when it sends (`OWNER_TAGS`,
 * `fillOwnerTags`; a letter's unsubscribe link, `LIST_UNSUBSCRIBE_TAG`,
 * `fillListUnsubscribe`).
 *
 * - `mailDocument({ title, body, footer })` → the HTML document;
 * - `mailParagraph(text)`, `mailButton(label, url)`, `mailDetails(rows)` →
 *   pieces of a body, their values escaped and typeset (no-break spaces of
 *   Swiss French);
 * - `replyText()` → the text part's footer (a merge tag); `visitorFooter(extra)`
 *   → the HTML footer (extra lines, then the merge tag); `replyLines(owner)`
 *   → the lines the tags become.
 */
import { siteName } from "~/content/site-name";
import type { IdentitySettings } from "~/settings/schema";
import { typeset } from "~/utils/typography";
import { escapeHtml } from "./render.server";

/** The font of every mail: fonts every mail client has. */
export const MAIL_FONT = "font-family: Verdana, Arial, Helvetica, sans-serif;";

/**
 * Inline styles by element, for mail clients. They also lay out the desk's
 * preview and the public archive of letters, whose style sheet resets
 * headings and lists: hence the weight of headings and the lists' markers,
 * spelled out.
 */
export const MAIL_STYLES: Record<string, string> = {
  h1: `${MAIL_FONT} font-size: 28px; font-weight: bold; line-height: 1.3; margin: 28px 0 12px; color: #111827;`,
  h2: `${MAIL_FONT} font-size: 24px; font-weight: bold; line-height: 1.3; margin: 28px 0 12px; color: #111827;`,
  h3: `${MAIL_FONT} font-size: 21px; font-weight: bold; line-height: 1.3; margin: 24px 0 8px; color: #111827;`,
  p: `${MAIL_FONT} font-size: 19px; line-height: 1.6; margin: 0 0 16px; color: #1f2937;`,
  li: `${MAIL_FONT} font-size: 19px; line-height: 1.6; margin: 0 0 8px; color: #1f2937;`,
  ul: "margin: 0 0 16px; padding-left: 28px; list-style: disc;",
  ol: "margin: 0 0 16px; padding-left: 28px; list-style: decimal;",
  a: "color: #1d4ed8; text-decoration: underline;",
  blockquote: "margin: 0 0 16px; padding: 8px 16px; border-left: 4px solid #1d4ed8; background: #eff6ff;",
  strong: "font-weight: bold;",
  img: "max-width: 100%; height: auto;",
};

/** The HTML document of a mail around `body` (already HTML) and `footer` (already HTML). */
export function mailDocument({ title, body, footer }: { title: string; body: string; footer: string }): string {
  return `<!doctype html>
<html lang="fr-CH"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin: 0; padding: 0; background: #f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background: #f3f4f6;"><tr><td align="center" style="padding: 24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width: 600px; width: 100%; background: #ffffff; border-radius: 12px;">
<tr><td style="padding: 24px 28px 8px; ${MAIL_FONT} font-size: 17px; font-weight: bold; color: #1d4ed8;">${escapeHtml(siteName)}</td></tr>
<tr><td style="padding: 8px 28px 16px;">${body}</td></tr>
<tr><td style="padding: 16px 28px 24px; border-top: 2px solid #e5e7eb; ${MAIL_FONT} font-size: 15px; line-height: 1.5; color: #4b5563;">${footer}</td></tr>
</table></td></tr></table></body></html>`;
}

/** One paragraph of a body: `text` typeset and escaped; its line breaks kept. */
export function mailParagraph(text: string): string {
  return `<p style="${MAIL_STYLES.p}">${escapeHtml(typeset(text)).replace(/\r?\n/g, "<br>")}</p>`;
}

/** A link drawn as a big button (at least 48 px high, 19 px bold text). */
export function mailButton(label: string, url: string): string {
  return `<p style="${MAIL_STYLES.p}"><a href="${escapeHtml(url)}" style="display: inline-block; padding: 14px 24px; background: #1d4ed8; color: #ffffff; ${MAIL_FONT} font-size: 19px; font-weight: bold; text-decoration: none; border-radius: 10px;">${escapeHtml(typeset(label))}</a></p>`;
}

/** Label and value rows (a session's date, place, price), one under the other so that they fit a phone. */
export function mailDetails(rows: readonly (readonly [string, string])[]): string {
  if (rows.length === 0) return "";
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin: 0 0 16px; border: 2px solid #e5e7eb; border-radius: 10px;">${rows
    .map(
      ([label, value]) =>
        `<tr><td style="padding: 10px 16px; ${MAIL_FONT} font-size: 19px; line-height: 1.5; color: #1f2937;"><strong style="${MAIL_STYLES.strong}">${escapeHtml(label)}</strong><br>${escapeHtml(typeset(value)).replace(/\r?\n/g, "<br>")}</td></tr>`,
    )
    .join("")}</table>`;
}

/** What a visitor mail's footer says of the owner (Réglages' identity). */
export type MailOwner = Pick<IdentitySettings, "businessName" | "address" | "phone" | "phoneDisplay">;

/**
 * Merge tags: where a visitor mail says how to reach the owner. The outbox
 * fills them in when it sends (`fillOwnerTags`), with the owner's details of
 * that moment: a reminder queued weeks ahead carries the telephone of the day
 * it leaves, not the one of the day it was queued.
 */
export const OWNER_TAGS = { text: "[[owner-footer]]", html: "<!--owner-footer-->" } as const;

/** The sender's identity: business name and postal address, on one line. */
export const senderLine = (owner: MailOwner) =>
  `${owner.businessName}, ${owner.address.street}, ${owner.address.postalCode} ${owner.address.locality}`;

/** How to reach the owner, as the footer of every visitor mail says it: reply, or call this number. */
export function replyLines(owner: MailOwner): string[] {
  return [
    `Une question ? Répondez simplement à ce message, ou appelez-moi au ${owner.phoneDisplay}.`,
    senderLine(owner),
  ].map(typeset);
}

/** The footer's lines of a visitor mail (`OWNER_TAGS.text` in the text part): `replyLines`, one per line. */
export function replyText(): string {
  return OWNER_TAGS.text;
}

/** `replyLines` as the HTML footer's paragraphs, the telephone as a `tel:` link (one tap on a phone). */
function replyHtml(owner: MailOwner): string {
  const [reply, sender] = replyLines(owner) as [string, string];
  const phone = typeset(owner.phoneDisplay);
  const withLink = escapeHtml(reply).replace(
    escapeHtml(phone),
    `<a href="tel:${escapeHtml(owner.phone)}" style="${MAIL_STYLES.a} white-space: nowrap;">${escapeHtml(phone)}</a>`,
  );
  return [withLink, escapeHtml(sender)].map(footerParagraph).join("");
}

const footerParagraph = (line: string) => `<p style="margin: 0 0 8px;">${line}</p>`;

/**
 * The footer's HTML of a visitor mail: `before` (HTML lines, e.g. the
 * letter's unsubscribe link), then the owner's lines (`OWNER_TAGS.html`,
 * filled in when the mail is sent).
 */
export function visitorFooter(before: string[] = []): string {
  return before.map(footerParagraph).join("") + OWNER_TAGS.html;
}

/** A mail's text and HTML with the owner's merge tags replaced by `owner`'s lines (no tag: unchanged). */
export function fillOwnerTags<T extends { text: string; html?: string }>(mail: T, owner: MailOwner): T {
  const text = mail.text.replaceAll(OWNER_TAGS.text, replyLines(owner).join("\n"));
  const html = mail.html?.replaceAll(OWNER_TAGS.html, replyHtml(owner));
  return { ...mail, text, ...(html !== undefined && { html }) };
}

/**
 * Merge tag of a mail's own unsubscribe link (a letter queued for every
 * subscriber at once, app/newsletter/queue.server.ts): the bodies are the
 * same for every row, the row's `List-Unsubscribe` header holds its link,
 * and the outbox puts that link in place of the tag when the mail leaves.
 * Nothing in it is escaped by HTML or JSON.
 */
export const LIST_UNSUBSCRIBE_TAG = "[[list-unsubscribe]]";

/**
 * `mail` with `LIST_UNSUBSCRIBE_TAG` replaced, in its text and HTML, by the
 * address of its `List-Unsubscribe` header (`<https://…>`), escaped in the HTML.
 * @throws Error when a body holds the tag and the header has no address: such a mail must not leave.
 */
export function fillListUnsubscribe<T extends { text: string; html?: string; headers?: Record<string, string> }>(
  mail: T,
): T {
  if (!mail.text.includes(LIST_UNSUBSCRIBE_TAG) && !mail.html?.includes(LIST_UNSUBSCRIBE_TAG)) return mail;
  const address = /^<([^<>\s]+)>$/.exec(mail.headers?.["List-Unsubscribe"] ?? "")?.[1];
  if (!address || address.includes(LIST_UNSUBSCRIBE_TAG))
    throw new Error("the mail's unsubscribe link has no address in its List-Unsubscribe header");
  const text = mail.text.replaceAll(LIST_UNSUBSCRIBE_TAG, address);
  const html = mail.html?.replaceAll(LIST_UNSUBSCRIBE_TAG, escapeHtml(address));
  return { ...mail, text, ...(html !== undefined && { html }) };
}
