/**
 * What the door tests share (tests/integration/doors*.test.ts): the
 * spellings of /contact that React Router resolves to its route, a large body
 * sent as a slow phone sends it, and a site process per `describe` block.
 */
import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll } from "vitest";
import { spawnSite, startSmtp, validForm, type SpawnedSite, freshDataDir } from "../support/harness";

/** Spellings of /contact that React Router resolves to the contact route. */
export const SPELLINGS = [
  "/contact",
  "/Contact",
  "/contact/",
  "/%63ontact",
  "/%43ONTACT",
  "/./contact",
  "/blog/../contact",
  "/%2e/contact",
  "/contact.data",
  "/CONTACT.data",
  "/contact?index",
];
export const OTHER_METHODS = ["PUT", "PATCH", "DELETE"];

/** How long `sendLargeBody`'s client sends before it reads, in milliseconds. */
const READ_DELAY_MS = 100;

/** What `sendLargeBody`'s client holds back of a large body until it has the answer, in bytes. */
const HELD_BACK = 64 * 1024;

/**
 * Sends `bytes` of body over a raw TCP connection, its length declared
 * (`Content-Length`) or not (chunked), 64 KB at a time with a pause in
 * between, and stops sending as soon as the server answers, as a browser
 * does. A body over 64 KB is never finished: the client holds back its last
 * 64 KB (`HELD_BACK`) until the answer, so an answer proves that the server
 * did not wait for the whole body (one that did would never answer, and the
 * test would time out). Resolves with the answer's status. The client starts
 * reading only after `readDelayMs` of sending, as a slow phone may: a server
 * that closed the connection at once on a refused body would reset it, and
 * the client's next write would fail (`EPIPE`) before the answer is read.
 * The server closes in stages (server/lingering-close.ts), so the answer is
 * read.
 */
export function sendLargeBody(
  base: string,
  method: string,
  pathname: string,
  bytes: number,
  declared: boolean,
  readDelayMs = READ_DELAY_MS,
) {
  const { hostname, port } = new URL(base);
  const sendable = bytes > HELD_BACK ? bytes - HELD_BACK : bytes;
  return new Promise<{ status: number }>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    let answer: { status: number } | undefined;
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      if (status && !answer) {
        answer = { status: Number(status) };
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on("error", (error) => answer ?? reject(new Error(`${method} ${pathname}: ${error.message}`)));
    socket.on("close", () => answer ?? reject(new Error(`${method} ${pathname}: closed without an answer`)));
    socket.on("connect", () => {
      // The client reads only after sending for a while, as a slow phone does: an answer that
      // reaches it must survive the server's close (server/lingering-close.ts).
      socket.pause();
      setTimeout(() => socket.resume(), readDelayMs);
      socket.write(
        `${method} ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${base}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\n` +
          (declared ? `Content-Length: ${bytes}\r\n` : "Transfer-Encoding: chunked\r\n") +
          "Connection: close\r\n\r\n",
      );
      let sent = 0;
      const pump = () => {
        if (answer || socket.destroyed) return;
        if (sent >= bytes) return void (declared ? socket.end() : socket.end("0\r\n\r\n"));
        // A large body waits here for the answer, unfinished.
        if (sent >= sendable) return;
        const chunk = Buffer.alloc(Math.min(64 * 1024, sendable - sent), "a");
        sent += chunk.length;
        socket.write(
          declared
            ? chunk
            : Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]),
        );
        setTimeout(pump, 2);
      };
      pump();
    });
  });
}

export const form = (email: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({ ...validForm(email), ...extra }).toString();

/**
 * A site process with its own data folder and SMTP peer for the tests of a
 * `describe` block (started before them, stopped and removed after); its
 * fields are set once `beforeAll` has run.
 */
export function siteForBlock(env: Record<string, string> = {}) {
  const block = {} as { site: SpawnedSite; dataDir: string; smtp: Awaited<ReturnType<typeof startSmtp>> };
  beforeAll(async () => {
    block.smtp = await startSmtp();
    block.dataDir = freshDataDir();
    block.site = await spawnSite({ DATA_DIR: block.dataDir, SMTP_URL: block.smtp.url, ...env });
    await block.site.ready();
  }, 120_000);
  afterAll(async () => {
    await block.site?.stop();
    await block.smtp?.close();
    fs.rmSync(block.dataDir, { recursive: true, force: true });
  });
  return block;
}
