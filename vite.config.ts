import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { imagetools } from "vite-imagetools";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { startupChunks } from "./scripts/startup-chunks.ts";
import { SERVER_EXTERNAL_PACKAGES } from "./tooling/build-server.ts";

export default defineConfig(({ isSsrBuild }) => {
  const chunks = startupChunks();
  return {
    plugins: [tailwindcss(), imagetools(), reactRouter(), chunks.plugin],
    // The server build bundles the packages it imports but those Node must load as they are (decision 072).
    ssr: { noExternal: true, external: [...SERVER_EXTERNAL_PACKAGES] },
    build: {
      // Keep every picture a file of its own (cacheable, replaceable), never inlined.
      assetsInlineLimit: 0,
      // Oxc, Vite 8's own minifier: within 0.1 KB of terser on what / loads, in a tenth of its time (decision 045).
      minify: isSsrBuild ? false : "oxc",
      // The gzip sizes Vite would print: nobody reads them (tests/budgets measures what / loads).
      reportCompressedSize: false,
      // Client only: the app code every page loads in one chunk, what `/` adds in another (decision 007).
      rolldownOptions: isSsrBuild ? {} : { output: { codeSplitting: { groups: [chunks.group] } } },
    },
    resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
    server: { port: 5173 },
  };
});
