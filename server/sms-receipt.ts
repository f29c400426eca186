/**
 * `GET /webhooks/sms?id=…&etat=recu|echec&sig=…`: where the SMS provider
 * (ASPSMS, decision 051) reports whether an SMS reached the telephone, by
 * requesting the receipt link given with the SMS (`receiptUrls`,
 * app/mail/sms.server.ts). Not a page: mounted before React Router, like
 * the mail webhook, on every spelling of its path React Router would
 * resolve (case, trailing slash, percent-encoding, `.data`). Guards, in
 * order: without the provider (SMS_PROVIDER log) every method answers 404;
 * then only GET (405 with `Allow: GET`), a rate limit, the link's signature
 * (401); then the receipt recorded (`recordSmsReceipt`) and 200.
 *
 * Log lines say the outcome and the row id, never the number.
 */
import express from "express";
import { rateLimit } from "express-rate-limit";
import type { Logger } from "pino";
import type { Clock } from "../app/context.server.ts";
import type { Database } from "../app/db/client.server.ts";
import { readReceipt, recordSmsReceipt, SMS_RECEIPT_PATH } from "../app/mail/sms.server.ts";
import { routerPathname } from "./doors.ts";

/** Whether `originalUrl` reaches the receipt path, spelt as React Router would resolve it, case ignored. */
export function isSmsReceiptPath(originalUrl: string): boolean {
  const pathname = routerPathname(originalUrl);
  return pathname !== null && decodeURIComponent(pathname).toLowerCase() === SMS_RECEIPT_PATH;
}

const text = "text/plain; charset=utf-8";

/** The receipt's handler, to `app.use` before React Router; passes on every other path. */
export function smsReceipt({
  password,
  db,
  logger,
  clock,
}: {
  /** ASPSMS_PASSWORD when SMS_PROVIDER is aspsms (the receipts' key is derived from it); undefined: 404. */
  password: string | undefined;
  db: Database;
  logger: Logger;
  clock: Clock;
}): express.Router {
  const limit = rateLimit({ windowMs: 60_000, limit: 600, standardHeaders: "draft-8", legacyHeaders: false });
  const router = express.Router();
  router.use((req, res, next) => {
    if (!isSmsReceiptPath(req.originalUrl)) return next();
    if (!password) return void res.status(404).type(text).send("Page introuvable.");
    if (req.method !== "GET") {
      res.setHeader("Allow", "GET");
      return void res.status(405).type(text).send("Méthode non autorisée.");
    }
    limit(req, res, () => {
      const receipt = readReceipt(new URL(`http://localhost${req.originalUrl}`).searchParams, password);
      if (!receipt) {
        logger.warn({ webhook: "sms" }, "sms receipt: refused, bad signature or parameters");
        return void res.status(401).type(text).send("Refusé.");
      }
      recordSmsReceipt(db, receipt, clock.now()).then(
        (marked) => {
          logger.info(
            { webhook: "sms", outboxId: receipt.outboxId, delivered: receipt.delivered, marked },
            "sms receipt",
          );
          res.status(200).type(text).send("ok");
        },
        (error: unknown) => next(error),
      );
    });
  });
  return router;
}
