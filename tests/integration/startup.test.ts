/**
 * A server started directly (as the deployment guide's systemd unit does)
 * checks that the build is its own: prerendered pages, the sitemap and the
 * feed carry the SITE_URL of the build.
 */
import { expect, it } from "vitest";
import { readBuildSiteUrl } from "../../app/config/build-info.server";
import { spawnSite } from "../support/harness";

it("refuses to start on a build made for another SITE_URL, saying what to run", async () => {
  const builtFor = readBuildSiteUrl("build");
  expect(builtFor, "the build records its SITE_URL").toBeTruthy();
  const site = await spawnSite({ SITE_URL: "https://www.autre-adresse.ch" });
  expect(await site.exited).not.toBe(0);
  const log = site.log.join("\n");
  expect(log).toContain(`SITE_URL is https://www.autre-adresse.ch, but the build in`);
  expect(log).toContain(`was made for ${builtFor}`);
  expect(log).toContain("npm run build");
}, 60_000);
