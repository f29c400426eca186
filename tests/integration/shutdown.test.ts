/**
 * SIGTERM in the middle of a burst of 200 contact requests, against a real
 * server process: the listener closes first, requests in progress finish,
 * the outbox worker gives back what it claimed, then the process exits.
 * Every request answered with success is stored and mailed exactly once,
 * and none sent after the server began to close is accepted.
 */
import fs from "node:fs";
import http from "node:http";
import { expect, it } from "vitest";
import { spawnSite, startSmtp, storedEmails, validForm, waitFor, freshDataDir } from "../support/harness";

type Outcome = { email: string; sentAt: number; status: number | "error" };

/** POSTs the contact form on a keep-alive connection of `agent`. */
function post(url: string, agent: http.Agent, email: string): Promise<number> {
  const { hostname, port, origin } = new URL(url);
  const body = new URLSearchParams(validForm(email)).toString();
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        path: "/contact",
        method: "POST",
        agent,
        headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode!));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

it("stores and mails once every request answered with success, and accepts none once closing", async () => {
  const smtp = await startSmtp();
  const dataDir = freshDataDir();
  // The default lease (5 minutes): rows the stopping worker claimed must be given back, not left to expire.
  const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, OUTBOX_LEASE_SECONDS: "300" };
  const site = await spawnSite(env);
  await site.ready();

  // Eight clients, each sending its next request when the last is answered, 200 in all: they
  // go on sending after SIGTERM, however slow the machine.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const outcomes: Outcome[] = [];
  let answered = 0;
  let next = 0;
  const clients = Array.from({ length: 8 }, async () => {
    while (next < 200) {
      const outcome: Outcome = { email: `sigterm${next++}@example.ch`, sentAt: Date.now(), status: "error" };
      outcomes.push(outcome);
      try {
        outcome.status = await post(site.url, agent, outcome.email);
        answered++;
      } catch {
        // the connection closed: nothing was promised
      }
    }
  });
  await waitFor(() => answered >= 60, 60_000, "60 answers");
  site.child.kill("SIGTERM");
  await Promise.all(clients);
  expect(await site.exited).toBe(0);
  agent.destroy();

  const closingLine = site.log.find((line) => line.includes("SIGTERM received, closing"));
  expect(closingLine, "the server logs when it starts closing").toBeDefined();
  const closingAt = JSON.parse(closingLine!).time as number;
  const succeeded = outcomes.filter((outcome) => outcome.status === 200).map((outcome) => outcome.email);
  const afterClosing = outcomes.filter((outcome) => outcome.sentAt > closingAt + 1);
  expect(succeeded.length).toBeGreaterThanOrEqual(60);
  expect(afterClosing.length, "requests were still sent after SIGTERM").toBeGreaterThan(20);
  expect(afterClosing.filter((outcome) => outcome.status === 200)).toEqual([]);
  expect(afterClosing.every((outcome) => outcome.status === 503 || outcome.status === "error")).toBe(true);

  // After a restart, every success is mailed, soon (no lease to wait out), and once.
  const restarted = await spawnSite(env);
  await restarted.ready();
  await waitFor(
    () => {
      const mailed = new Set(smtp.mails.map((mail) => mail.replyTo));
      return succeeded.every((email) => mailed.has(email));
    },
    30_000,
    "every success's mail",
  );
  await new Promise((resolve) => setTimeout(resolve, 1000)); // a duplicate would come by now
  expect(await restarted.stop()).toBe(0);

  const mailed = smtp.mails.map((mail) => mail.replyTo!).sort();
  expect(mailed).toEqual([...succeeded].sort());
  expect((await storedEmails(dataDir)).sort()).toEqual([...succeeded].sort());
  await smtp.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 180_000);
