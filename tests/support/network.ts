/**
 * Network helpers for tests: a free port, a server that never answers, a raw
 * HTTP request whose path is sent exactly as given, and a poll until a
 * condition holds.
 */
import http from "node:http";
import net from "node:net";

/** A free TCP port on localhost, chosen by the system. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A server that takes TCP connections and never answers (a database server
 * that hangs), on a free port of localhost. `hangUp()` drops the connections
 * it holds; `close()` drops them and stops it.
 */
export async function startHangingServer(): Promise<{ port: number; hangUp(): void; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const hangUp = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    hangUp,
    close() {
      hangUp();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * Sends a raw request on a connection of its own, the path exactly as given
 * (`fetch` would normalise `/x/../admin` or `/%61dmin`); `Origin` is the
 * site and the body url-encoded unless `headers` say otherwise.
 */
export function sendRaw(
  base: string,
  method: string,
  pathname: string,
  { body, headers = {} }: { body?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const { hostname, port, origin } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        method,
        path: pathname,
        agent: false,
        headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded", ...headers },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Polls `check` every 50 ms until it returns true or `timeout` ms pass. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeout = 10_000,
  what = "condition",
): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeout) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
