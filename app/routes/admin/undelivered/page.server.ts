/**
 * The mails not delivered for a desk page (`undeliveredFor`): all of them,
 * a person's (sent to their e-mail), or those of some mails (a session's
 * registrations), with their kind's French label.
 */
import type { SQL } from "drizzle-orm";
import { inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { mailLabel } from "~/desk/mail-labels.server";
import type { UndeliveredItem } from "~/desk/undelivered";
import { MAIL_LABELS } from "~/features.server";
import { undeliveredMails } from "~/mail/manage.server";
import { mailsTo } from "~/mail/undelivered.server";

/** Which mails: all, those to `email`, or those of `mailIds`. */
export type UndeliveredScope = { all: true } | { email: string } | { mailIds: readonly number[] };

/** The mails not delivered of `scope`, as the desk lists them. @throws whatever the driver throws. */
export async function undeliveredFor(db: Database, scope: UndeliveredScope): Promise<UndeliveredItem[]> {
  let where: SQL | undefined;
  if ("email" in scope) where = mailsTo(scope.email);
  else if ("mailIds" in scope) {
    if (scope.mailIds.length === 0) return [];
    where = inArray(outbox.id, [...scope.mailIds]);
  }
  const mails = await undeliveredMails(db, where);
  return mails.map(({ kind, ...mail }) => ({ ...mail, label: mailLabel(MAIL_LABELS, kind) }));
}
