/**
 * `POST /webhooks/courrier`: where the mail provider (Mailgun, decision 044)
 * reports bounces and complaints. Not a page: mounted before React Router,
 * like `/csp-report`, on every spelling of its path that React Router would
 * resolve (`isMailWebhookPath`: case, trailing slash, percent-encoding,
 * `.data`). No same-origin check (the provider posts it); instead each body
 * is signed (HMAC, app/mail/mailgun.server.ts). Guards, in order: the door
 * guards' declared-length limit (server/doors.ts), then here only POST
 * (405 with `Allow: POST`), a rate limit, a 64 KB JSON body (413), the
 * signature, timestamp and token (401, 409), then the event recorded
 * (app/mail/provider-events.server.ts) and 200. Without
 * MAIL_WEBHOOK_SIGNING_KEY every method answers 404.
 *
 * Log lines say what was done with the event and the row id, never the
 * recipient's address nor the provider's words.
 */
import express from "express";
import { rateLimit } from "express-rate-limit";
import type { Logger } from "pino";
import type { Clock } from "../app/context.server.ts";
import type { Database } from "../app/db/client.server.ts";
import { errorFields } from "../app/db/errors.server.ts";
import { readMailgunWebhook, ReplayGuard } from "../app/mail/mailgun.server.ts";
import { recordProviderEvent } from "../app/mail/provider-events.server.ts";
import { routerPathname } from "./doors.ts";

export const MAIL_WEBHOOK_PATH = "/webhooks/courrier";

/** Largest webhook body read: Mailgun's events are a few kilobytes. */
const BODY_LIMIT = "64kb";

/** The only method the webhook serves. */
export const MAIL_WEBHOOK_METHODS = "POST";

/**
 * Whether `originalUrl` reaches the webhook, spelt as React Router would
 * resolve it (`routerPathname`: dot segments, `.data` and a trailing slash),
 * percent-decoded, case ignored.
 */
export function isMailWebhookPath(originalUrl: string): boolean {
  const pathname = routerPathname(originalUrl);
  return pathname !== null && decodeURIComponent(pathname).toLowerCase() === MAIL_WEBHOOK_PATH;
}

const text = "text/plain; charset=utf-8";

/**
 * The webhook's handler, to `app.use` before React Router; passes on every
 * other path.
 */
export function mailWebhook({
  signingKey,
  db,
  logger,
  clock,
}: {
  /** MAIL_WEBHOOK_SIGNING_KEY; undefined: the path answers 404. */
  signingKey: string | undefined;
  db: Database;
  logger: Logger;
  clock: Clock;
}): express.Router {
  const replays = new ReplayGuard();
  const router = express.Router();
  const guarded = express.Router();
  guarded.use((req, res, next) => {
    if (!signingKey) {
      res.status(404).type(text).send("Page introuvable.");
      return;
    }
    if (req.method !== "POST") {
      res.setHeader("Allow", MAIL_WEBHOOK_METHODS);
      res.status(405).type(text).send("Méthode non autorisée.");
      return;
    }
    next();
  });
  guarded.use(
    rateLimit({ windowMs: 60_000, limit: 600, standardHeaders: "draft-8", legacyHeaders: false }),
    express.json({ type: () => true, limit: BODY_LIMIT }),
    (async (req, res) => {
      const reading = readMailgunWebhook(req.body, { signingKey: signingKey!, now: clock.now().getTime(), replays });
      if (!reading.accepted) {
        logger.warn({ webhook: "mailgun", status: reading.status }, `mail webhook: refused, ${reading.why}`);
        res.status(reading.status).type(text).send("Refusé.");
        return;
      }
      if (reading.event) {
        const done = await recordProviderEvent(db, reading.event, clock.now());
        logger.info(
          { webhook: "mailgun", event: reading.event.kind, ...done },
          `mail webhook: ${reading.event.kind} ${done.outcome}`,
        );
      }
      res.status(200).type(text).send("ok");
    }) satisfies express.RequestHandler,
    // A body that is not JSON (400) or too long (413): answered without the HTML error page.
    ((error, _req, res, next) => {
      const { status } = error as { status?: number };
      if (typeof status !== "number" || status < 400 || status >= 500) return next(error);
      res.status(status).type(text).send("Requête invalide.");
    }) satisfies express.ErrorRequestHandler,
  );
  router.use((req, res, next) => {
    if (!isMailWebhookPath(req.originalUrl)) return next();
    guarded(req, res, (error?: unknown) => {
      if (error) {
        logger.error({ err: errorFields(error) }, "mail webhook: failed");
        if (!res.headersSent) res.status(500).type(text).send("Erreur du serveur.");
      } else next();
    });
  });
  return router;
}
