/**
 * SQL conditions on `outbox` rows that the desk, its live counts and the
 * provider's events share (decision 042): `UNDELIVERED`, a mail the desk
 * shows as not delivered (failed, not expired, not left aside by the
 * owner), and `mailsTo(email)`. A module of its own, importing no worker,
 * so that its readers import neither the outbox nor each other.
 */
import { sql, type SQL } from "drizzle-orm";
import { outbox } from "~/db/schema";

export const UNDELIVERED: SQL = sql`${outbox.failedAt} is not null and ${outbox.dismissedAt} is null and ${outbox.errorStage} is distinct from 'expired'`;

/** The mails sent or to be sent to `email` (lower-cased), as a condition on `outbox`. */
export const mailsTo = (email: string): SQL => sql`lower(${outbox.recipient}) = ${email.trim().toLowerCase()}`;
