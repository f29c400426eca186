/**
 * Rollup `manualChunks` for the client build (docs/decisions/007-javascript-budget.md).
 *
 * Many small chunks gzip worse than one: each compresses alone. So the
 * modules the root route imports statically (what every page loads) go into
 * one chunk, `app`, and those the home route adds into another, `home`.
 * Only static imports are followed: what a module loads with `import()`
 * (the contact dialog's shell, the contact form) stays in its own lazy
 * chunks. React, React DOM and React Router are left where Rollup puts them.
 *
 * Icons come from lucide-react's entry point (`import { X } from
 * "lucide-react"`, its documented, tree-shaken API). Rollup puts a manual
 * chunk's dependencies into it, so every icon the site uses, those of the
 * blog and of the lazy contact form included, lands in `app`
 * (docs/decisions/010-valid-deferred-hydration.md).
 */
import type { GetManualChunk, ManualChunkMeta } from "rollup";

/** Modules never grouped: the framework, already in its own large chunks. */
const framework = /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/;

/** Path of a module id, without the query React Router or Vite may add. */
const pathOf = (id: string) => id.replace(/^\0/, "").split("?")[0]!;

/** Every module reachable from `starts` through static imports, framework excluded. */
function staticGraph(starts: string[], meta: ManualChunkMeta): Set<string> {
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length) {
    const id = queue.pop()!;
    if (seen.has(id) || framework.test(id)) continue;
    seen.add(id);
    queue.push(...(meta.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

let groups: { app: Set<string>; home: Set<string> } | undefined;

/** Assigns a module to the `app` or `home` chunk, or leaves it to Rollup (undefined). */
export const startupChunks: GetManualChunk = (id, meta) => {
  if (!groups) {
    const ids = [...meta.getModuleIds()];
    const routeModule = (file: string) => ids.filter((candidate) => pathOf(candidate).endsWith(file));
    const app = staticGraph(routeModule("/app/root.tsx"), meta);
    const home = staticGraph(routeModule("/app/routes/home.tsx"), meta);
    for (const shared of app) home.delete(shared);
    groups = { app, home };
  }
  if (groups.app.has(id)) return "app";
  if (groups.home.has(id)) return "home";
  return undefined;
};
