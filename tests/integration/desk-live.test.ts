/**
 * The live desk (app/desk/live.server.ts, app/routes/admin/live.ts,
 * docs/decisions/025-live-desk.md) on real servers:
 *
 * - two server processes sharing one PostgreSQL: a contact request posted
 *   on A reaches, as an event, a desk stream open on B; stopping B ends its
 *   streams at once (browsers connect again elsewhere);
 * - behind every door: without the owner's session, every spelling of the
 *   stream's path is sent to the sign-in page (or gets 401 as a data
 *   request) and streams nothing; other methods get 405; with the session,
 *   the stream is neither compressed nor stored, starts at once, carries
 *   counts and ids only, and is dropped when the client goes.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeskSnapshot } from "../../app/desk/live";
import {
  createOwner,
  deskFetch,
  postContact,
  postgresBinaries,
  sendRaw,
  signIn,
  spawnSite,
  startPostgres,
  startTestServer,
  validForm,
  waitFor,
  type CookieJar,
  type SpawnedSite,
} from "../support/harness";

/** An event stream as a browser reads it: its answer, its text so far, its `counts` events, a way to hang up. */
interface OpenStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  text(): string;
  snapshots(): DeskSnapshot[];
  ended: Promise<void>;
  close(): void;
}

/** Opens `pathname` on `baseUrl` as `EventSource` does (with the jar's cookies); resolves once the answer's head came. */
function openStream(
  baseUrl: string,
  pathname: string,
  jar?: CookieJar,
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        path: pathname,
        agent: false,
        headers: {
          Accept: "text/event-stream",
          "Accept-Encoding": "gzip, deflate, br",
          ...(jar ? { Cookie: jar.header() } : {}),
          ...headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        const ended = new Promise<void>((done) => {
          response.on("end", done);
          response.on("close", done);
        });
        resolve({
          status: response.statusCode!,
          headers: response.headers,
          text: () => text,
          snapshots: () =>
            [...text.matchAll(/^event: counts\ndata: (.*)$/gm)].map((match) => JSON.parse(match[1]!) as DeskSnapshot),
          ended,
          close: () => request.destroy(),
        });
      },
    );
    request.on("error", reject);
    request.end();
  });
}

describe.skipIf(!postgresBinaries())("the live desk on two server processes sharing one PostgreSQL", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let a: SpawnedSite;
  let b: SpawnedSite;
  let jar: CookieJar;

  beforeAll(async () => {
    postgres = await startPostgres();
    [a, b] = [await spawnSite({ DATABASE_URL: postgres.url }), await spawnSite({ DATABASE_URL: postgres.url })];
    await Promise.all([a.ready(), b.ready()]);
    jar = await signIn(b.url, await createOwner(postgres.url, "live-owner@example.ch"));
  }, 180_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    postgres?.destroy();
  });

  it("shows a contact request posted on A as an event on B's open desk stream", async () => {
    const stream = await openStream(b.url, "/admin/direct", jar);
    expect(stream.status).toBe(200);
    await waitFor(() => stream.snapshots().length === 1, 5000, "the first snapshot");
    const before = stream.snapshots()[0]!;

    const posted = await postContact(a.url, validForm("live.visitor@example.ch"));
    expect(posted.status).toBe(200);
    await waitFor(() => stream.snapshots().length === 2, 5000, "the event of the new request on B");
    const after = stream.snapshots()[1]!;
    expect(after.requests).toBe(before.requests + 1);
    expect(after.latest.request).toBeGreaterThan(before.latest.request);
    // Counts and ids only.
    expect(stream.text()).not.toMatch(/live\.visitor|Marie|Dupont|123 45 67/);

    // The request is the one the desk on B lists.
    const desk = await deskFetch(b.url, "/admin", { jar });
    expect(await desk.text()).toContain(`/admin/demandes/${after.latest.request}`);
    stream.close();
  });

  it("ends its open streams when B stops, without waiting for the grace period", async () => {
    const stream = await openStream(b.url, "/admin/direct", jar);
    await waitFor(() => stream.snapshots().length === 1, 5000, "the first snapshot");
    const stopping = b.stop();
    await stream.ended;
    expect(await stopping).toBe(0);
  });
});

/** Spellings that React Router resolves to /admin/direct. */
const SPELLINGS = [
  "/admin/direct",
  "/Admin/Direct",
  "/admin/direct/",
  "/%61dmin/direct",
  "/admin/./direct",
  "/admin/x/../direct",
];
const DATA_SPELLINGS = ["/admin/direct.data", "/ADMIN/DIRECT.data"];

describe("the desk's event stream behind every door", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  let jar: CookieJar;

  beforeAll(async () => {
    site = await startTestServer({});
    jar = await signIn(site.url, await createOwner(site.database.db, "live-doors@example.ch"));
  });
  afterAll(async () => {
    await site?.close();
  });

  it("sends a visitor without the owner's session to the sign-in page, on every spelling, streaming nothing", async () => {
    for (const spelling of SPELLINGS) {
      const stream = await openStream(site.url, spelling);
      await stream.ended;
      expect(stream.status, spelling).toBe(303);
      expect(stream.headers.location, spelling).toBe("/admin/connexion");
      expect(stream.headers["content-type"] ?? "", spelling).not.toContain("event-stream");
      expect(stream.text(), spelling).not.toContain("event:");
    }
    for (const spelling of DATA_SPELLINGS) {
      const stream = await openStream(site.url, spelling);
      await stream.ended;
      expect(stream.status, spelling).toBe(401);
      expect(stream.text(), spelling).not.toContain("event:");
    }
    // A session cookie that names no session is no better.
    const forged = await openStream(site.url, "/admin/direct", undefined, {
      Cookie: jar.header().replace(/=([^;]*)/g, "=forged"),
    });
    await forged.ended;
    expect(forged.status).toBe(303);
    expect(site.deskLive.clients).toBe(0);
  });

  it("refuses other methods with 405 on every spelling", async () => {
    for (const spelling of [...SPELLINGS, ...DATA_SPELLINGS]) {
      for (const method of ["POST", "PUT", "DELETE"]) {
        const answer = await sendRaw(site.url, method, spelling, { headers: { Cookie: jar.header() } });
        expect(answer.status, `${method} ${spelling}`).toBe(405);
      }
    }
  });

  it("streams to the owner at once on every spelling, uncompressed and never stored, and drops a client that goes", async () => {
    for (const spelling of SPELLINGS) {
      const stream = await openStream(site.url, spelling, jar);
      expect(stream.status, spelling).toBe(200);
      expect(stream.headers["content-type"], spelling).toBe("text/event-stream; charset=utf-8");
      // Compression would hold the events in its buffer.
      expect(stream.headers["content-encoding"], spelling).toBeUndefined();
      expect(stream.headers["cache-control"], spelling).toBe("no-store, no-transform");
      expect(stream.headers["x-robots-tag"], spelling).toBe("noindex, nofollow");
      await waitFor(() => stream.snapshots().length === 1, 5000, `the first snapshot on ${spelling}`);
      expect(stream.text().startsWith("retry: 3000\n\n"), spelling).toBe(true);
      await waitFor(() => site.deskLive.clients === 1, 5000, "one open stream");
      stream.close();
      await waitFor(() => site.deskLive.clients === 0, 5000, `the stream of ${spelling} dropped when its client went`);
    }
  });
});
