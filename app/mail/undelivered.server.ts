/**
 * `UNDELIVERED`: the SQL condition (on `outbox`) of a mail the desk shows as
 * not delivered: failed, not expired, not left aside by the owner
 * (decision 042). A module of its own so that the desk's live counts
 * (desk/live.server.ts) read it without importing the outbox's worker.
 */
import { sql, type SQL } from "drizzle-orm";
import { outbox } from "~/db/schema";

export const UNDELIVERED: SQL = sql`${outbox.failedAt} is not null and ${outbox.dismissedAt} is null and ${outbox.errorStage} is distinct from 'expired'`;
