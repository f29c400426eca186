/**
 * Limits on what one person can book through the public form (issue 22
 * item 5, decision 028), with the settings that set them:
 *
 * - seats one client address takes in a day (BOOKING_SEATS_PER_ADDRESS_PER_DAY):
 *   the address as the doors see it (`clientAddressContext`: Express's
 *   `req.ip` under its `trust proxy` setting), an IPv6 address by its /56
 *   network (as the rate limits count it), turned into its key of the day
 *   (app/guards/daily-key.server.ts: no address is stored); each
 *   registration keeps that key (`course_registrations.client_key`), and
 *   `seatsAllowed` sums the seats of the key's registrations not cancelled
 *   (confirmed or waiting), under a lock of the key, so that posts sent at
 *   once cannot all pass;
 * - mails to one recipient a day (MAILS_PER_RECIPIENT_PER_DAY):
 *   app/mail/recipient-cap.server.ts, passed on as `mailCap`;
 * - bursts the desk flags (BOOKING_BURST_REGISTRATIONS): `burstsOf`, the
 *   registrations of one session sharing a key of the day.
 *
 * Registrations the owner takes in the desk carry no key and meet none of
 * these limits (one telephone, one registration a session, holds for both).
 */
import { ipKeyGenerator } from "express-rate-limit";
import { and, eq, ne, sql } from "drizzle-orm";
import { clientAddressContext, clockContext, dbContext, settingsContext, type RequestContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { courseRegistrations } from "~/db/schema";
import { dailyKey } from "~/guards/daily-key.server";
import { recipientCapFor, type RecipientCap } from "~/mail/recipient-cap.server";

/** The seat cap of one client address, for `registerForSession`. */
export interface ClientLimit {
  /** The client address's key of the day. */
  key: string;
  /** Seats it may take today (confirmed or waiting). */
  seatsPerDay: number;
}

/** The limits a public action passes to the booking functions. */
export interface PublicLimits {
  clientLimit?: ClientLimit;
  mailCap: RecipientCap;
  /** Owner's booking notices an hour before they go into one digest (OWNER_BOOKING_NOTICES_PER_HOUR). */
  ownerNoticesPerHour?: number;
}

/** What a limit counts of a client address: its /56 network for IPv6, the address itself for IPv4. */
export function clientNetwork(address: string): string {
  return ipKeyGenerator(address);
}

/**
 * The limits of this request (a public action), from its settings and its
 * client address: the mail cap always; the seat cap when the address is
 * known (`withClient`, the registration form).
 * @throws the driver's error (drawing the day's salt).
 */
export async function publicLimits(
  context: RequestContext,
  { now = context.get(clockContext).now(), withClient = false }: { now?: Date; withClient?: boolean } = {},
): Promise<PublicLimits> {
  const settings = context.get(settingsContext);
  const mailCap = recipientCapFor(context, now);
  if (!withClient) return { mailCap };
  const ownerNoticesPerHour = settings.OWNER_BOOKING_NOTICES_PER_HOUR;
  const address = clientNetwork(context.get(clientAddressContext));
  const key = await dailyKey(context.get(dbContext), `address:${address}`, now);
  return {
    mailCap,
    ownerNoticesPerHour,
    clientLimit: { key, seatsPerDay: settings.BOOKING_SEATS_PER_ADDRESS_PER_DAY },
  };
}

/**
 * Whether the client of `limit` may take `seats` more today, in `tx`: the
 * seats of its registrations not cancelled, plus `seats`, within
 * `limit.seatsPerDay`. Takes a transaction-scoped lock of the key first
 * (held until commit): call it after the session's lock, as
 * `registerForSession` does, so that every registration takes its locks in
 * one order. Without `limit` (the desk), always true.
 * @throws the driver's error.
 */
export async function seatsAllowed(tx: Database, limit: ClientLimit | undefined, seats: number): Promise<boolean> {
  if (!limit) return true;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`site:client:${limit.key}`}))`);
  const [row] = await tx
    .select({ seats: sql<number>`coalesce(sum(${courseRegistrations.seats}), 0)::int` })
    .from(courseRegistrations)
    .where(and(eq(courseRegistrations.clientKey, limit.key), ne(courseRegistrations.status, "cancelled")));
  return Number(row!.seats) + seats <= limit.seatsPerDay;
}

/** A registration as `burstsOf` reads it. */
export interface KeyedRegistration {
  id: number;
  clientKey: string | null;
}

/**
 * The bursts among a session's registrations: each group of at least
 * `threshold` registrations (cancelled ones too) posted from one client
 * address on one day, numbered 1, 2... in the order of their first
 * registration.
 * @returns the group's number of each registration in a burst, by id.
 */
export function burstsOf(rows: readonly KeyedRegistration[], threshold: number): Map<number, number> {
  const byKey = new Map<string, number[]>();
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    if (!row.clientKey) continue;
    byKey.set(row.clientKey, [...(byKey.get(row.clientKey) ?? []), row.id]);
  }
  const groups = new Map<number, number>();
  let group = 0;
  for (const ids of byKey.values()) {
    if (ids.length < threshold) continue;
    group += 1;
    for (const id of ids) groups.set(id, group);
  }
  return groups;
}
