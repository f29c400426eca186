/**
 * The deployment guide's nginx configuration (issue 33, item 6), run with
 * Debian's nginx in front of a test site: a 5 MB photo reaches the desk's
 * upload paths (every spelling that reaches them: trailing slash, `.data`,
 * upper case) while a 2 MB contact post, and a 2 MB post to another desk
 * path, get nginx's 413. docs/deploy.md shows docs/nginx/site.conf as it is.
 *
 * nginx runs as the test's own user: `daemon off`, `master_process off`
 * (no worker switching to another user), every file under a temporary
 * prefix; the guide's `www.example.ch` server block is used with its
 * `listen` and TLS lines replaced by a free loopback port and its upstream
 * by the test site. Skipped where nginx is not installed, except in CI
 * (`CI` set), where it fails: scripts/ensure-test-tools.sh installs it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pictures } from "../../app/db/schema";
import { pictureMessages } from "../../app/pictures/pictures.server";
import {
  createOwner,
  deskFetch,
  freePort,
  signIn,
  startTestServer,
  validForm,
  waitFor,
  type CookieJar,
} from "../support/harness";

const CONFIG = path.join("docs", "nginx", "site.conf");

/** Debian's nginx, or null. */
function nginxBinary(): string | null {
  for (const candidate of ["/usr/sbin/nginx", "/usr/bin/nginx"]) if (fs.existsSync(candidate)) return candidate;
  return null;
}

/** The guide's server block for `www.example.ch` over HTTPS, listening on `port` in plain HTTP, proxying to `upstream`. */
function guideServerBlock(port: number, upstream: string): string {
  const blocks = fs.readFileSync(CONFIG, "utf8").split(/^(?=server \{)/m);
  const block = blocks.find((text) => /server_name www\.example\.ch;/.test(text) && /location /.test(text));
  if (!block) throw new Error(`No server block for www.example.ch with locations in ${CONFIG}.`);
  const lines = block.split("\n").filter((line) => !/^\s*(listen|ssl_)/.test(line));
  lines.splice(1, 0, `    listen 127.0.0.1:${port};`);
  const adapted = lines.join("\n").replaceAll("http://127.0.0.1:3000", upstream);
  if (adapted.includes("127.0.0.1:3000")) throw new Error("The upstream was not replaced.");
  return adapted;
}

describe("the guide's nginx configuration is the file the test runs", () => {
  it("docs/deploy.md shows docs/nginx/site.conf as it is", () => {
    const guide = fs.readFileSync(path.join("docs", "deploy.md"), "utf8");
    expect(guide).toContain("```nginx\n" + fs.readFileSync(CONFIG, "utf8") + "```\n");
  });
});

describe.runIf(nginxBinary() || process.env.CI)("the guide's nginx in front of the site", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  let jar: CookieJar;
  let nginx: ChildProcess | undefined;
  let prefix: string;
  let proxy: string;
  let photo: Buffer;
  const log: string[] = [];

  beforeAll(async () => {
    site = await startTestServer({});
    jar = await signIn(site.url, await createOwner(site.database.db));
    prefix = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-guide-"));
    const port = await freePort();
    proxy = `http://127.0.0.1:${port}`;
    const conf = [
      "daemon off;",
      "master_process off;",
      `pid ${prefix}/nginx.pid;`,
      `error_log ${prefix}/error.log warn;`,
      "events { worker_connections 64; }",
      "http {",
      "    access_log off;",
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((name) => `    ${name}_temp_path ${prefix}/${name};`),
      guideServerBlock(port, site.url),
      "}",
      "",
    ].join("\n");
    fs.writeFileSync(path.join(prefix, "nginx.conf"), conf);
    const binary = nginxBinary() ?? "nginx";
    nginx = spawn(binary, ["-p", prefix, "-e", `${prefix}/error.log`, "-c", `${prefix}/nginx.conf`], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    nginx.on("error", (error) => log.push(`nginx could not start (${binary}): ${error.message}`));
    for (const stream of [nginx.stdout!, nginx.stderr!]) stream.on("data", (chunk: Buffer) => log.push(String(chunk)));
    await waitFor(
      async () => {
        if (nginx!.exitCode !== null || log.some((line) => line.startsWith("nginx could not start")))
          throw new Error(`nginx stopped: ${log.join("")}`);
        return fetch(`${proxy}/healthz`).then(
          (answer) => answer.ok,
          () => false,
        );
      },
      20_000,
      "nginx in front of the site",
    );
    // A photo of more than 5 MB (noise compresses badly).
    photo = await sharp({
      create: {
        width: 2800,
        height: 2100,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma: 50 },
      },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
  }, 120_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once("exit", resolve));
      nginx.kill("SIGQUIT");
      await exited;
    }
    await site?.close();
    if (prefix) fs.rmSync(prefix, { recursive: true, force: true });
  });

  /** Posts `file` with the desk's photo form to `pathname` through nginx, signed in, from the proxied origin. */
  const postPhoto = (pathname: string, file: Buffer, fields: Record<string, string> = {}) => {
    const body = new FormData();
    for (const [name, value] of Object.entries({ alt: "Une grande photo", pictureAlt: "Une grande photo", ...fields }))
      body.append(name, value);
    body.append("picture", new Blob([new Uint8Array(file)], { type: "image/jpeg" }), "photo.jpg");
    // nginx passes `Host: $host`, without the port: the origin the site sees.
    return fetch(`${proxy}${pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: "http://127.0.0.1", Cookie: jar.header() },
      body,
    });
  };
  const stored = async () => (await site.database.db.select({ id: pictures.id }).from(pictures)).length;

  it("passes a 5 MB photo to the desk's Images page, which stores it", async () => {
    expect(photo.length).toBeGreaterThan(5 * 1024 * 1024);
    const before = await stored();
    const answer = await postPhoto("/admin/images", photo);
    expect(answer.status, await answer.clone().text()).toBe(303);
    expect(answer.headers.get("location")).toMatch(/^\/admin\/images\?ajoutee=\d+$/);
    expect(await stored()).toBe(before + 1);
  });

  it("passes 5 MB on every spelling of the two upload paths: the site, not nginx, answers", async () => {
    const created = await deskFetch(site.url, "/admin/articles", { jar, form: { title: "Une photo par nginx" } });
    const article = created.headers.get("location")!;
    expect(article).toMatch(/^\/admin\/articles\/\d+$/);
    // Not a photo, but 5 MB: the site reads it all and says why it refuses it.
    const notPhoto = Buffer.alloc(photo.length, 0x41);
    for (const pathname of [
      "/admin/images/",
      "/admin/images.data",
      "/ADMIN/Images",
      article,
      `${article}/`,
      `${article}.data`,
    ]) {
      const answer = await postPhoto(pathname, notPhoto, {
        intent: "upload",
        title: "Une photo par nginx",
        excerpt: "Un résumé.",
        category: "Applications",
        body: "Un texte.",
        icon: "Lightbulb",
        color: "primary",
      });
      const text = await answer.text();
      expect(answer.status, pathname).not.toBe(413);
      expect(text, pathname).not.toContain("<h1>413 Request Entity Too Large</h1>");
      if (!pathname.endsWith(".data"))
        expect(text.replace(/&#x27;|&#39;/g, "'"), pathname).toContain(pictureMessages.notImage.slice(0, 40));
    }
  });

  it("refuses a 2 MB contact post, and 2 MB to any other desk path, with nginx's 413", async () => {
    const form = { ...validForm("grand.message@example.ch"), message: "x".repeat(2 * 1024 * 1024) };
    const contact = await fetch(`${proxy}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://127.0.0.1" },
      body: new URLSearchParams(form).toString(),
    });
    expect(contact.status).toBe(413);
    // nginx's own page, not the site's French one: the body never reached the site.
    expect(await contact.text()).toContain("<h1>413 Request Entity Too Large</h1>");
    for (const pathname of ["/admin/reglages", "/admin/images/autre", "/admin/articles"]) {
      const answer = await postPhoto(pathname, Buffer.alloc(2 * 1024 * 1024, 0x41));
      expect(answer.status, pathname).toBe(413);
    }
  });
});
