/**
 * What a feature gives the mechanisms (DESIGN.md section 10): one typed
 * value per feature, exported by its `app/<feature>/plug.server.ts` and
 * listed by app/features.server.ts, the only module that names every
 * feature. The mechanisms take the list from there (the registry,
 * retention, the outbox, the desk's mail labels); none imports a feature.
 */
import type { Logger } from "pino";
import type { Settings } from "~/config/settings.server";
import type { Database } from "~/db/client.server";
import type { OutboxPlug } from "~/mail/outbox-delivery.server";
import type { MailLabels } from "./mail-labels.server";
import type { PersonPlug } from "./person-types";
import type { TimedJob } from "./jobs.server";
import type { RetentionPlug } from "./retention.server";

/** What a feature's start-up step receives: the open database, the process's log and settings. */
export interface StartContext {
  db: Database;
  logger: Logger;
  settings: Settings;
}

export interface Feature {
  /** The feature's folder under app/. */
  name: string;
  /** Its tables in the person registry: found, shown, exported, erased (with hooks after). */
  person?: PersonPlug;
  /** Its retention rules, run by the daily job. */
  retention?: RetentionPlug;
  /** Its kinds of mail and their French labels, as the desk shows them. */
  mailLabels?: MailLabels;
  /** What the outbox does when one of its mails leaves. */
  outbox?: OutboxPlug;
  /** Its timed jobs, run on every process (app/desk/jobs.server.ts). */
  jobs?: readonly TimedJob[];
  /** Its step at each start of a server process, once the database is open, before the first request. */
  atStart?: (context: StartContext) => Promise<void>;
}
