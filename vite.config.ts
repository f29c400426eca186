import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { imagetools } from "vite-imagetools";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { startupChunks } from "./scripts/startup-chunks";

/** lucide-react's icon modules get their component from app/components/ui/lucide-runtime.ts (decision 007). */
const lucideRuntime: Plugin = {
  name: "lucide-runtime",
  enforce: "pre",
  resolveId(source, importer) {
    if (
      source === "../createLucideIcon.mjs" &&
      importer &&
      /lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/.test(importer)
    )
      return fileURLToPath(new URL("./app/components/ui/lucide-runtime.ts", import.meta.url));
    return undefined;
  },
};

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [lucideRuntime, tailwindcss(), imagetools(), reactRouter()],
  // Bundled on the server too, so that it renders the icons with the same runtime as the browser.
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
