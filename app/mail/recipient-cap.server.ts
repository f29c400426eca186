/**
 * The cap on mails that public actions write to one address in a day
 * (issue 22 item 5, decision 028): a stranger's address typed twelve times
 * as the "proche" of twelve registrations gets at most `perDay` mails that
 * day (MAILS_PER_RECIPIENT_PER_DAY), whatever the number of client
 * addresses the posts come from.
 *
 * `enqueueVisitorMail(cap, tx, mail)` is `enqueueMail` for a mail a
 * public action writes to an address the visitor typed (a booking's
 * confirmation, waiting-list notice and reminder, a cancellation by link, a
 * newsletter confirmation). With `cap`, it counts the mail against its
 * recipient's day (Europe/Zurich; `recipient_mail_days`, by the address's
 * key of the day: app/guards/daily-key.server.ts, no address stored; the
 * key is the mailbox's, `mailboxOf`: `marie+1@` and `Marie+2@` count as
 * `marie@`, the mailbox that receives them all):
 * within the cap the mail is written as usual; past it, it is not written
 * (null), the caller's own rows (the registration, the subscription) are
 * kept, a warning is logged (the mail's kind only), and the first mail held
 * for that address on that day writes the owner's notice (`MAIL_HELD_NOTICE`:
 * the address, the day's count, the subject held; one a day an address, so
 * that a flood of posts is not a flood of notices). Without `cap` (the
 * desk's own actions, the owner's mails) it is `enqueueMail`.
 *
 * Mails counted are those written, in the caller's transaction: a request
 * that fails writes and counts nothing. Counting takes one transaction-scoped
 * advisory lock (`site:recipient-cap`) before any counter row, so that two
 * registrations naming the same two addresses in opposite roles never
 * deadlock; it is held until the caller commits.
 */
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { clockContext, loggerContext, settingsContext, type RequestContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { recipientMailDays } from "~/db/schema";
import { dailyKey, dayOf, deleteDaysPast } from "~/guards/daily-key.server";
import { enqueueMails, type MailToSend } from "./enqueue.server";
import { escapeHtml } from "./render.server";

/** The outbox kind of the owner's notice that mails to an address were held. */
export const MAIL_HELD_NOTICE = "owner-mail-held";

/**
 * The mailbox an address delivers to, as the cap counts it: lowercase, its
 * `+tag` dropped (`Marie.Dupont+cours@Example.ch` is
 * `marie.dupont@example.ch`), which every common provider delivers to the
 * same mailbox.
 */
export function mailboxOf(address: string): string {
  const normalised = address.trim().toLowerCase();
  const at = normalised.lastIndexOf("@");
  if (at <= 0) return normalised;
  const local = normalised.slice(0, at).split("+", 1)[0] || normalised.slice(0, at);
  return `${local}${normalised.slice(at)}`;
}

/** The cap a public action passes (from the settings). */
export interface RecipientCap {
  /** Mails a day to one address (MAILS_PER_RECIPIENT_PER_DAY), at least 1. */
  perDay: number;
  /** The site's origin (SITE_URL), for the notice's link to the desk. */
  siteUrl: string;
  /** The current time (tests pass a fixed clock); its day in Zurich is the day counted. */
  now?: Date;
  /** Told, without the address, when a mail is held. */
  logger?: Logger;
}

/** The cap of a public action's request: its settings' MAILS_PER_RECIPIENT_PER_DAY and SITE_URL, its logger. */
export function recipientCapFor(context: RequestContext, now = context.get(clockContext).now()): RecipientCap {
  const settings = context.get(settingsContext);
  return {
    perDay: settings.MAILS_PER_RECIPIENT_PER_DAY,
    siteUrl: settings.SITE_URL,
    now,
    logger: context.get(loggerContext),
  };
}

/**
 * Writes `mail` into the outbox in `tx` unless its recipient has had
 * `cap.perDay` mails from public actions today (see the module's comment).
 * @returns the outbox row's id, or null when the mail was held.
 * @throws the driver's error (the caller's transaction is rolled back).
 */
export async function enqueueVisitorMail(
  cap: RecipientCap | undefined,
  tx: Database,
  mail: MailToSend,
): Promise<number | null> {
  return (await enqueueVisitorMails(cap, tx, [mail]))[0]!;
}

/**
 * `enqueueVisitorMail` for several mails (a booking's confirmation and its
 * reminders), as if written one after the other: each recipient's day
 * counted once for all its mails (the first ones within the cap written,
 * the rest held), every mail written in one statement.
 * @returns each mail's outbox id, null for a mail held, in the order of `mails`.
 * @throws the driver's error (the caller's transaction is rolled back).
 */
export async function enqueueVisitorMails(
  cap: RecipientCap | undefined,
  tx: Database,
  mails: readonly MailToSend[],
): Promise<(number | null)[]> {
  if (!cap) return enqueueMails(tx, mails);
  const byMailbox = new Map<string, number[]>();
  mails.forEach((mail, index) => {
    if (mail.recipient === null) return;
    const key = mailboxOf(mail.recipient);
    byMailbox.set(key, [...(byMailbox.get(key) ?? []), index]);
  });
  const held = new Set<number>();
  const notices: MailToSend[] = [];
  for (const [key, indexes] of byMailbox) {
    const count = await countForRecipient(tx, key, cap.perDay, cap.now ?? new Date(), indexes.length);
    if (count.counted) continue;
    const first = mails[indexes[indexes.length - count.heldNow]!]!;
    for (const index of indexes.slice(indexes.length - count.heldNow)) {
      held.add(index);
      cap.logger?.warn(
        { kind: mails[index]!.kind },
        "mail cap: the day's mails to one address are written, this one is held",
      );
    }
    if (count.held === count.heldNow) {
      const address = first.recipient!.trim().toLowerCase();
      notices.push({
        kind: MAIL_HELD_NOTICE,
        recipient: null,
        people: [{ name: "", email: address }],
        ...mailHeldNotice({ address, queued: count.queued, subject: first.subject, siteUrl: cap.siteUrl }),
      });
    }
  }
  const written = mails.filter((_, index) => !held.has(index));
  const ids = await enqueueMails(tx, [...written, ...notices]);
  let next = 0;
  return mails.map((_, index) => (held.has(index) ? null : ids[next++]!));
}

/**
 * Counts `count` messages (1 by default) to `recipient` (a mailbox, or
 * `sms:` and a number) on `now`'s day (Europe/Zurich, by its key of the
 * day: no address stored), as many as `perDay` leaves room for; the others
 * make the day's `held` count grow. Takes the cap's advisory lock first
 * (held until `tx` commits).
 * @returns `counted` when all were counted; else `heldNow` (the last
 *   `heldNow` of the `count` were not), and the day's `held` and `queued`
 *   counts after it.
 */
export async function countForRecipient(
  tx: Database,
  recipient: string,
  perDay: number,
  now: Date,
  count = 1,
): Promise<{ counted: true } | { counted: false; heldNow: number; held: number; queued: number }> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('site:recipient-cap'))`);
  const day = dayOf(now);
  const recipientKey = await dailyKey(tx, recipient, now);
  // One statement: the day's counts before (the same snapshot) and after, however many are counted.
  const result = (await tx.execute(sql`
    with before as (
      select queued, held from ${recipientMailDays} where day = ${day} and recipient_key = ${recipientKey}
    )
    insert into ${recipientMailDays} (day, recipient_key, queued, held)
    values (${day}, ${recipientKey}, least(${perDay}::int, ${count}::int), ${count}::int - least(${perDay}::int, ${count}::int))
    on conflict (day, recipient_key) do update set
      queued = least(${perDay}::int, ${recipientMailDays.queued} + ${count}::int),
      held = ${recipientMailDays.held} + ${count}::int - (least(${perDay}::int, ${recipientMailDays.queued} + ${count}::int) - ${recipientMailDays.queued})
    returning queued, held, coalesce((select held from before), 0) as held_before`)) as unknown as {
    rows: { queued: number; held: number; held_before: number }[];
  };
  const row = result.rows[0]!;
  const [queued, held] = [Number(row.queued), Number(row.held)];
  const heldNow = held - Number(row.held_before);
  return heldNow === 0 ? { counted: true } : { counted: false, heldNow, held, queued };
}

/**
 * The owner's notice that mails to `address` are held until tomorrow:
 * how many were written today, the subject of the first one held, what to
 * do, and the address's page in the desk.
 */
export function mailHeldNotice({
  address,
  queued,
  subject,
  siteUrl,
}: {
  address: string;
  queued: number;
  subject: string;
  siteUrl: string;
}): { subject: string; text: string; html: string } {
  const personUrl = `${siteUrl}/admin/personne?${new URLSearchParams({ email: address }).toString()}`;
  const paragraphs = [
    `Le site a écrit aujourd’hui ${queued} e-mail${queued > 1 ? "s" : ""} à l’adresse ${address}, à la suite de demandes faites sur le site (inscriptions aux cours, lettre d’information). C’est la limite du jour : les suivants pour cette adresse ne partent pas avant demain.`,
    `Premier e-mail retenu : « ${subject} ».`,
    "Les demandes elles-mêmes sont enregistrées : vous les trouvez dans le bureau. Si cette adresse est celle d’une personne qui s’inscrit vraiment, appelez-la. Sinon, quelqu’un l’a peut-être donnée sans son accord : il n’y a rien d’autre à faire.",
    "Vous recevez un seul avis par adresse et par jour.",
  ];
  const link = { label: "Ce que le site garde de cette adresse", url: personUrl };
  return {
    subject: "Envois retenus : limite du jour atteinte pour une adresse e-mail",
    text: `${[...paragraphs, `${link.label} :\n${link.url}`].join("\n\n")}\n`,
    html: [
      ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
      `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    ].join(""),
  };
}

/** Deletes the day counts of the days whose salts are gone (`oldestKeptDay`; the daily job). */
export const deleteOldMailDays = (db: Database, now: Date) =>
  deleteDaysPast(db, recipientMailDays, recipientMailDays.day, now);
