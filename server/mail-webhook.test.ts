/**
 * The mail webhook's path and its answer without a signing key
 * (server/mail-webhook.ts); signed bodies on the whole server:
 * tests/integration/mail-webhook.test.ts.
 */
import type { AddressInfo } from "node:net";
import express from "express";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { Database } from "../app/db/client.server";
import { isMailWebhookPath, mailWebhook } from "./mail-webhook";

describe("isMailWebhookPath", () => {
  it.each([
    "/webhooks/courrier",
    "/webhooks/courrier/",
    "/Webhooks/COURRIER",
    "/webhooks/%63ourrier",
    "/webhooks/courrier.data",
    "/webhooks/courrier?x=1",
    "/./webhooks/courrier",
    "/blog/../webhooks/courrier",
  ])("knows %s", (url) => {
    expect(isMailWebhookPath(url)).toBe(true);
  });

  it.each(["/webhooks", "/webhooks/courrier/x", "/webhooks/courriers", "/webhooks/%zz", "/csp-report"])(
    "leaves %s to the rest of the site",
    (url) => {
      expect(isMailWebhookPath(url)).toBe(false);
    },
  );
});

describe("without MAIL_WEBHOOK_SIGNING_KEY", () => {
  it("answers 404 to every method and spelling, and passes other paths on", async () => {
    const app = express();
    app.use(
      mailWebhook({
        signingKey: undefined,
        db: {} as Database,
        logger: pino({ level: "silent" }),
        clock: { now: () => new Date("2026-11-27T11:00:00Z") },
      }),
    );
    app.use((_req, res) => void res.status(299).end());
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ["/webhooks/courrier", "/WEBHOOKS/courrier/", "/webhooks/courrier.data"])
        for (const method of ["GET", "POST"]) {
          const answer = await fetch(`${base}${path}`, { method, ...(method === "POST" && { body: "{}" }) });
          expect([path, method, answer.status]).toEqual([path, method, 404]);
        }
      expect((await fetch(`${base}/contact`)).status).toBe(299);
    } finally {
      server.close();
    }
  });
});
