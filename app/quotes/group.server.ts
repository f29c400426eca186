/**
 * What an accepted quote makes for its group (docs/decisions/053-quotes-and-groups.md):
 *
 * - `makeGroupSession(db, id, { siteUrl, now })`: one click in the desk
 *   makes the session of the quote's course, date and place, closed
 *   (`course_sessions.closed`: not on `/cours`, not bookable, not in the
 *   sitemap), seats for the group's size and no price (the quote is the
 *   price), and mails the organisation's contact person its own link page
 *   (`groupPath(token)`, purpose `GROUP_LINK`, valid until a week after
 *   the session), under the quote's row lock: two clicks make one session.
 * - `groupByToken(db, token, now)`: the quote and its session behind a
 *   link (null: unknown, expired, or the session gone).
 * - `saveParticipants(db, id, names)`: the participants' list, by the
 *   organisation on its page or by the owner in the desk (`namesOf(form)`
 *   reads the posted `name-N` fields).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseSessions, quotes } from "~/db/schema";
import { createSession, getSession, sessionEnd, type SessionRow } from "~/courses/sessions.server";
import { enqueueMail } from "~/mail/enqueue.server";
import { mailButton, mailDetails, mailDocument, mailParagraph, replyText, visitorFooter } from "~/mail/layout.server";
import { oneLine } from "~/mail/render.server";
import { issueToken, readToken } from "~/tokens/tokens.server";
import { formatDateTimeRange } from "~/utils/format";
import { QUOTE_MAIL, quoteCourseTitle, type Quote } from "./quotes.server";

/** The purpose of a group's link tokens (`link_tokens.purpose`; subject: the quote's id). */
export const GROUP_LINK = "group-list";

/** The path of a group's link page. */
export const groupPath = (token: string) => `/groupe/${token}`;

/** The most names a list holds. */
export const MAX_PARTICIPANTS = 100;

/** The longest name kept, in characters. */
const MAX_NAME = 100;

/** How long the link works after the session ends: a week, for a late correction. */
const LINK_AFTER_END_MS = 7 * 24 * 60 * 60 * 1000;

/** The number of name fields a list shows: the group's size, at least three more than the names filled in. */
export const nameFieldCount = (quote: Pick<Quote, "groupSize" | "participants">) =>
  Math.min(MAX_PARTICIPANTS, Math.max(quote.groupSize ?? 0, quote.participants.length + 3, 5));

/** The names posted in `name-0` … `name-99`, trimmed, single spaces, empty ones left out, each at most 100 characters. */
export function namesOf(form: FormData): string[] {
  const names: string[] = [];
  for (let index = 0; index < MAX_PARTICIPANTS; index++) {
    const value = form.get(`name-${index}`);
    const name = typeof value === "string" ? value.trim().replace(/\s+/g, " ").slice(0, MAX_NAME) : "";
    if (name) names.push(name);
  }
  return names;
}

/** The group's mail: its link page, the date and the place. */
function groupMail(quote: Quote, session: SessionRow, link: string) {
  const name = quote.clientAttention ?? quote.clientName;
  const when = formatDateTimeRange(session.startsAt, sessionEnd(session));
  const subject = oneLine(`Votre groupe du ${when.split(",")[0]} : la liste des participants`);
  const paragraphs = [
    `Bonjour ${name},`,
    `Merci d’avoir accepté le devis n° ${quote.number}. La séance « ${quoteCourseTitle(quote)} » pour ${quote.clientName} est réservée.`,
    `Sur la page ci-dessous, vous retrouvez la date et le lieu, et vous pouvez inscrire les noms des participants, puis les corriger jusqu’au jour même. Gardez ce lien pour vous : il ouvre la liste de votre groupe.`,
  ];
  const details: [string, string][] = [
    ["Date", when],
    ["Lieu", `${session.placeName}, ${session.placeAddress}`],
  ];
  const text = `${paragraphs.join("\n\n")}\n\nLa page de votre groupe : ${link}\n\n${details.map(([label, value]) => `${label} : ${value}`).join("\n")}\n\n${quote.creditor.name}\n\n${replyText()}\n`;
  const html = mailDocument({
    title: subject,
    body: [
      ...paragraphs.map(mailParagraph),
      mailButton("Ouvrir la page de mon groupe", link),
      mailDetails(details),
      mailParagraph(quote.creditor.name),
    ].join(""),
    footer: visitorFooter(),
  });
  return { subject, text, html };
}

/**
 * Makes the closed session of accepted quote `id` and mails its link page (see the module's comment).
 * @returns "made" (with the session's id; `mailed` false when the quote has no e-mail), "exists" (made
 *   before), "not-accepted" or "not-found". @throws the driver's error.
 */
export async function makeGroupSession(
  db: Database,
  id: number,
  { siteUrl, now }: { siteUrl: string; now: Date },
): Promise<
  { outcome: "made"; sessionId: number; mailed: boolean } | { outcome: "exists" | "not-accepted" | "not-found" }
> {
  return db.transaction(async (tx) => {
    const [quote] = await tx.select().from(quotes).where(eq(quotes.id, id)).for("update");
    if (!quote) return { outcome: "not-found" } as const;
    if (quote.status !== "accepted") return { outcome: "not-accepted" } as const;
    if (quote.sessionId !== null) return { outcome: "exists" } as const;
    const sessionId = await createSession(tx, {
      courseId: quote.courseId,
      startsAt: new Date(quote.startsAt),
      durationMinutes: quote.durationMinutes,
      placeName: quote.placeName,
      placeAddress: quote.placeAddress,
      placeAccess: "",
      capacity: Math.min(100, Math.max(1, quote.groupSize ?? 1)),
      minimum: 0,
      priceChf: 0,
      payment: "facture",
    });
    // In the same transaction as its insert: no reader ever sees it open.
    await tx.update(courseSessions).set({ closed: true }).where(eq(courseSessions.id, sessionId));
    await tx
      .update(quotes)
      .set({ sessionId })
      .where(and(eq(quotes.id, id), isNull(quotes.sessionId)));
    if (!quote.email) return { outcome: "made", sessionId, mailed: false } as const;
    const session = (await getSession(tx, sessionId))!;
    const token = await issueToken(tx, {
      purpose: GROUP_LINK,
      subject: String(quote.id),
      expiresAt: new Date(sessionEnd(session).getTime() + LINK_AFTER_END_MS),
      now,
    });
    await enqueueMail(tx, {
      kind: QUOTE_MAIL.groupList,
      recipient: quote.email,
      ...groupMail(quote, session, `${siteUrl}${groupPath(token)}`),
      people: quote.clientAttention ? [{ name: quote.clientAttention, email: quote.email, phone: quote.phone }] : [],
    });
    return { outcome: "made", sessionId, mailed: true } as const;
  });
}

/** The quote and its closed session behind a group's link; null when the link is not (or no longer) valid. */
export async function groupByToken(
  db: Database,
  token: string,
  now: Date,
): Promise<{ quote: Quote; session: SessionRow } | null> {
  const found = await readToken(db, { purpose: GROUP_LINK, token, now });
  const id = Number(found?.subject);
  if (!found || !Number.isSafeInteger(id)) return null;
  const [row] = await db
    .select({ quote: quotes, session: courseSessions })
    .from(quotes)
    .innerJoin(courseSessions, eq(courseSessions.id, quotes.sessionId))
    .where(eq(quotes.id, id));
  return row ?? null;
}

/**
 * Stores the participants' list of quote `id` (replacing it), at most `MAX_PARTICIPANTS` names.
 * @returns whether the quote exists. @throws the driver's error.
 */
export async function saveParticipants(db: Database, id: number, names: readonly string[]): Promise<boolean> {
  const changed = await db
    .update(quotes)
    .set({ participants: names.slice(0, MAX_PARTICIPANTS) })
    .where(eq(quotes.id, id))
    .returning({ id: quotes.id });
  return changed.length > 0;
}
