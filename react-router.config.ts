import type { Config } from "@react-router/dev/config";

/**
 * React Router framework configuration.
 * SSR stays on (route actions, the 404 page, the server-rendered contact
 * details view); every public page is also prerendered to static HTML at
 * build time and served as a file by Express.
 */
export default {
  appDirectory: "app",
  buildDirectory: "build",
  ssr: true,
  async prerender() {
    return ["/"];
  },
} satisfies Config;
