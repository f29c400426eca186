/**
 * The reference of `npm run bench:pages`: Debian's nginx (`/usr/sbin/nginx`,
 * `apt-get install -y nginx`; never downloaded) serving bytes captured
 * from the site, with the site's headers, as one worker process (the site
 * is one Node process).
 *
 * `capture(baseUrl, path, acceptEncoding)` reads one answer as sent (status,
 * headers, body bytes, still compressed); `startNginx(answers)` serves each
 * at `/n{index}` (nginx matches no query string: the index stands for the
 * site's path), its headers added as they came but for those nginx sets
 * itself (Date, Content-Length, connection headers) and Last-Modified and
 * Accept-Ranges, which nginx adds to any file: two short lines more than
 * the site sends. Access log to a file, as a production nginx would.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort, waitFor } from "../tests/support/harness";

/** Where Debian's package installs nginx. */
export const NGINX = "/usr/sbin/nginx";

/** One answer of the site, as sent. */
export interface CapturedAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** GETs `pathname` of `baseUrl` on a connection of its own: the answer's bytes as sent (not decompressed). */
export function capture(baseUrl: string, pathname: string, acceptEncoding: string): Promise<CapturedAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { hostname, port, path: pathname, agent: false, headers: { "Accept-Encoding": acceptEncoding } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const headers: [string, string][] = [];
          for (let index = 0; index < response.rawHeaders.length; index += 2)
            headers.push([response.rawHeaders[index]!, response.rawHeaders[index + 1]!]);
          resolve({ status: response.statusCode!, headers, body: Buffer.concat(chunks) });
        });
      },
    );
    request.on("error", reject);
    request.end();
  });
}

/** Headers nginx writes itself for a file, or that belong to one connection. */
const NGINX_OWN = new Set(["date", "content-length", "connection", "keep-alive", "transfer-encoding", "content-type"]);

/** A header value as an nginx string: double-quoted, `"` and `\` escaped; `$` (a variable to nginx) refused. */
function quoted(value: string): string {
  if (value.includes("$")) throw new Error(`A header value with "$" cannot be given to nginx as is: ${value}`);
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** A running nginx serving `answers[i]` at `/n{i}`. */
export interface RunningNginx {
  url: string;
  /** The master process's id (its worker is its child). */
  pid: number;
  pathOf(index: number): string;
  stop(): Promise<void>;
}

/**
 * Starts nginx (one worker, keep-alive without a request limit, sendfile)
 * in a folder of its own under the system's temporary folder, serving each
 * answer with its status 200 or 404 and headers. Resolves once it answers.
 * @throws when nginx is missing or does not start within 10 s.
 */
export async function startNginx(answers: readonly CapturedAnswer[]): Promise<RunningNginx> {
  if (!fs.existsSync(NGINX)) throw new Error(`${NGINX} is missing (apt-get install -y nginx)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-nginx-"));
  const port = await freePort();
  const locations = answers.map((answer, index) => {
    const file = path.join(dir, `n${index}.body`);
    fs.writeFileSync(file, answer.body);
    const type = answer.headers.find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
    const added = answer.headers
      .filter(([name]) => !NGINX_OWN.has(name.toLowerCase()))
      .map(([name, value]) => `      add_header ${name} ${quoted(value)} always;`);
    // A 404 page: served by `error_page` from a file of its own, as the site answers its kept 404.
    const body =
      answer.status === 404 ? [`      return 404;`, `      error_page 404 /n${index}.404;`] : [`      alias ${file};`];
    const page404 =
      answer.status === 404
        ? [
            `    location = /n${index}.404 {`,
            `      internal;`,
            `      types {}`,
            `      default_type ${quoted(type)};`,
            `      alias ${file};`,
            ...added,
            `    }`,
          ]
        : [];
    return [
      `    location = /n${index} {`,
      `      types {}`,
      `      default_type ${quoted(type)};`,
      ...body,
      ...added,
      `    }`,
      ...page404,
    ].join("\n");
  });
  const temp = (name: string) => `  ${name}_temp_path ${path.join(dir, name)};`;
  const config = [
    // Workers read the captured files in this folder (mode 700): as root, workers run as root too.
    ...(process.getuid?.() === 0 ? ["user root;"] : []),
    "worker_processes 1;",
    "daemon off;",
    `pid ${path.join(dir, "nginx.pid")};`,
    `error_log ${path.join(dir, "error.log")} warn;`,
    "events { worker_connections 1024; }",
    "http {",
    `  access_log ${path.join(dir, "access.log")};`,
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp),
    "  server_tokens off;",
    "  sendfile on;",
    "  tcp_nopush on;",
    "  keepalive_requests 1000000;",
    "  etag off;",
    "  server {",
    `    listen 127.0.0.1:${port};`,
    ...locations,
    "  }",
    "}",
    "",
  ].join("\n");
  const configFile = path.join(dir, "nginx.conf");
  fs.writeFileSync(configFile, config);
  const child = spawn(NGINX, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", configFile], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`nginx exited: ${fs.readFileSync(path.join(dir, "error.log"))}`);
        return fetch(`${url}/n0`).then(
          async (answer) => (await answer.arrayBuffer(), true),
          () => false,
        );
      },
      10_000,
      "nginx",
    );
  } catch (error) {
    child.kill("SIGQUIT");
    throw error;
  }
  return {
    url,
    pid: child.pid!,
    pathOf: (index) => `/n${index}`,
    async stop() {
      child.kill("SIGQUIT");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
