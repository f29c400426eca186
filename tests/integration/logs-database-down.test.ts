/**
 * Issue 24, item 4: with the database down, no visitor's field reaches the
 * server's output (stdout and stderr of the production process: pino's
 * lines and anything a library prints), whatever action is tried: the
 * contact form, the newsletter box, a course registration, the owner's
 * sign-in (the typed e-mail was logged through a failed query's message),
 * and the links of mails (their tokens are not logged either).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSession } from "../../app/courses/sessions.server";
import { openDatabase } from "../../app/db/client.server";
import { postgresBinaries, sessionFields, spawnSite, startPostgres, type SpawnedSite } from "../support/harness";

const VISITOR = {
  firstName: "Jeanne",
  lastName: "Oubliable",
  email: "jeanne.oubliable@example.ch",
  phone: "+41 79 555 98 76",
  message: "Mon ordinateur portable ne démarre plus depuis hier",
};
const TOKEN = "JetonSecretDuLien1234567890abcdefghijKLMNOP";
const PRIVATE = [
  VISITOR.lastName,
  VISITOR.email,
  "79 555 98 76",
  "555 98 76",
  "ne démarre plus",
  TOKEN,
  "Motdepasse-Tape-42",
];

const backends = postgresBinaries() || process.env.CI ? ["postgres"] : [];
let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
let site: SpawnedSite | undefined;
let sessionId = 0;

beforeAll(async () => {
  if (!backends.length) return;
  postgres = await startPostgres({ own: true });
  const database = await openDatabase({ databaseUrl: postgres.url, dataDir: "unused" });
  sessionId = await createSession(database.db, sessionFields());
  await database.close();
  site = await spawnSite({ DATABASE_URL: postgres.url, LOG_LEVEL: "debug" });
  await site.ready();
}, 120_000);

afterAll(async () => {
  await site?.stop();
  postgres?.destroy();
});

function post(path: string, fields: Record<string, string>) {
  return fetch(`${site!.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site!.url },
    body: new URLSearchParams(fields).toString(),
  });
}

it.skipIf(!backends.length)(
  "every public action and the sign-in, database down: no 500, no visitor field nor token in the output",
  async () => {
    postgres!.stop();
    const answers = {
      contact: await post("/contact", {
        ...VISITOR,
        service: "one-to-one-support",
        contactConsent: "on",
        website: "",
      }),
      newsletter: await post("/newsletter", { email: VISITOR.email, source: "home", website: "" }),
      booking: await post("/cours/securite", {
        sessionId: String(sessionId),
        ...VISITOR,
        seats: "1",
        website: "",
      }),
      signIn: await post("/admin/connexion", {
        step: "password",
        email: VISITOR.email,
        password: "Motdepasse-Tape-42",
        website: "",
      }),
      registrationPage: await fetch(`${site!.url}/cours/inscription/${TOKEN}`),
      cancel: await post(`/cours/inscription/${TOKEN}`, { intent: "cancel", website: "" }),
      confirm: await post(`/newsletter/confirmer/${TOKEN}`, { website: "" }),
      unsubscribe: await post(`/newsletter/desabonnement/${TOKEN}`, { website: "" }),
    };
    await Promise.all(Object.values(answers).map((answer) => answer.arrayBuffer()));
    // Give the process a moment to write what it logs.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // One line for the whole outage (issue 33, item 10), not one per failed request.
    expect(site!.log.filter((line) => line.includes("database: not answering"))).toHaveLength(1);
    for (const value of PRIVATE) {
      const leaks = site!.log.filter((line) => line.includes(value));
      expect(leaks, `output lines carrying "${value}"`).toEqual([]);
    }
    // The forms, and the desk's sign-in, answer their own 503 in French.
    for (const name of ["contact", "newsletter", "booking", "cancel", "signIn"] as const) {
      expect(answers[name].status, name).toBe(503);
    }
  },
  120_000,
);
