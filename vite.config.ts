import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { imagetools } from "vite-imagetools";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { startupChunks } from "./scripts/startup-chunks";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), imagetools(), reactRouter()],
  // Bundled into the server build too: lucide-react's entry point imports every icon (about 1,700 modules),
  // which Node would load at each start; bundled, only the icons the site uses are kept.
  ssr: { noExternal: ["lucide-react"] },
  build: {
    // Keep every picture a file of its own (cacheable, replaceable), never inlined.
    assetsInlineLimit: 0,
    // terser gzips about 3 KB smaller than esbuild on what / loads (decision 007).
    minify: isSsrBuild ? false : "terser",
    terserOptions: { module: true, compress: { passes: 2 } },
    // Client only: the app code every page loads in one chunk, what `/` adds in another (decision 007).
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: startupChunks } },
  },
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  server: { port: 5173 },
}));
