import type { Server } from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { lingeringClose } from "./lingering-close.ts";

/** A server that refuses every body at once with 413 (as server/doors.ts does), lingering `lingerMs`. */
async function refusingServer(lingerMs: number) {
  const app = express();
  app.use(lingeringClose(lingerMs));
  app.use((_req, res) => {
    res.setHeader("Connection", "close");
    res.status(413).send("La demande envoyée est trop volumineuse.");
  });
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** The raw request head of a POST declaring a 10 MB body. */
const HEAD = `POST /contact HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`;

/**
 * Sends a 10 MB body 64 KB at a time and reads only after `readDelayMs`, as
 * a slow phone may. Resolves with what was read before the connection
 * ended; rejects when a write fails first (the connection was reset).
 */
function sendWhileTheServerAnswers(port: number, readDelayMs: number) {
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    socket.pause();
    setTimeout(() => socket.resume(), readDelayMs);
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("utf8");
      if (received.includes("\r\n\r\n")) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on("error", reject);
    socket.write(HEAD);
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const pump = () => {
      if (socket.destroyed || sent >= 10 * 1024 * 1024) return;
      sent += chunk.length;
      socket.write(chunk);
      setTimeout(pump, 2);
    };
    pump();
  });
}

/** The number of connections the server holds. */
const connections = (server: Server) =>
  new Promise<number>((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );

describe("lingeringClose", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it("lets a client that reads late read the refusal instead of a reset connection", async () => {
    const refusing = await refusingServer(5_000);
    server = refusing.server;
    for (let attempt = 0; attempt < 5; attempt++) {
      const answer = await sendWhileTheServerAnswers(refusing.port, 100);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    }
  });

  it("closes a lingering connection after lingerMs when the client neither sends nor closes", async () => {
    const refusing = await refusingServer(200);
    server = refusing.server;
    const socket = net.connect(refusing.port, "127.0.0.1");
    socket.on("error", () => undefined);
    const answered = new Promise<void>((resolve) => socket.once("data", () => resolve()));
    socket.write(HEAD);
    socket.write(Buffer.alloc(64 * 1024, "a"));
    await answered;
    // The client keeps its side open and silent: only the server's bound ends the connection.
    const deadline = performance.now() + 5_000;
    while ((await connections(server)) > 0 && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await connections(server)).toBe(0);
    socket.destroy();
  });
});
