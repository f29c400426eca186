/**
 * The client build's startup chunks (docs/decisions/007-javascript-budget.md).
 *
 * Many small chunks gzip worse than one: each compresses alone. So the
 * modules the root route imports statically (what every page loads) go into
 * one chunk, `app`, and those the home route adds into another, `home`.
 * Only static imports are followed: what a module loads with `import()`
 * (the contact dialog's shell, the contact form) stays in its own lazy
 * chunks. React, React DOM and React Router are left where Rolldown puts them.
 *
 * Icons come from lucide-react's entry point (`import { X } from
 * "lucide-react"`, its documented, tree-shaken API). A group takes its
 * modules' dependencies with it (Rolldown's `includeDependenciesRecursively`,
 * on by default), so every icon the site uses, those of the blog and of the
 * lazy contact form included, lands in `app`
 * (docs/decisions/010-valid-deferred-hydration.md).
 *
 * Rolldown's chunk groups (`output.codeSplitting`, https://rolldown.rs/in-depth/advanced-chunks)
 * see one module at a time; the two graphs are walked once, by a plugin at
 * the end of the client build's module graph (`buildEnd`, where
 * `this.getModuleIds()` lists every module), before chunks are made.
 */
import type { Plugin } from "vite";

/** Modules never grouped: the framework, already in its own large chunks. */
const framework = /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/;

/** Path of a module id, without the query React Router or Vite may add. */
const pathOf = (id: string) => id.replace(/^\0/, "").split("?")[0]!;

type ModuleInfoOf = (id: string) => { importedIds: readonly string[] } | null;

/** Every module reachable from `starts` through static imports, framework excluded. */
function staticGraph(starts: string[], moduleInfo: ModuleInfoOf): Set<string> {
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length) {
    const id = queue.pop()!;
    if (seen.has(id) || framework.test(id)) continue;
    seen.add(id);
    queue.push(...(moduleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * The plugin that walks the client's module graph, and the chunk group (for
 * `build.rolldownOptions.output.codeSplitting.groups`) that names a module's
 * chunk from that walk: `app`, `home`, or null (left to Rolldown).
 */
export function startupChunks(): {
  plugin: Plugin;
  group: { debugName: string; name: (id: string) => string | null };
} {
  let groups: { app: Set<string>; home: Set<string> } | undefined;
  return {
    plugin: {
      name: "startup-chunks",
      apply: "build",
      applyToEnvironment: (environment) => environment.name === "client",
      buildEnd() {
        const ids = [...this.getModuleIds()];
        const moduleInfo: ModuleInfoOf = (id) => this.getModuleInfo(id);
        const routeModule = (file: string) => ids.filter((candidate) => pathOf(candidate).endsWith(file));
        const app = staticGraph(routeModule("/app/root.tsx"), moduleInfo);
        const home = staticGraph(routeModule("/app/routes/home.tsx"), moduleInfo);
        for (const shared of app) home.delete(shared);
        groups = { app, home };
      },
    },
    group: {
      debugName: "startup-chunks",
      name: (id) => (groups?.app.has(id) ? "app" : groups?.home.has(id) ? "home" : null),
    },
  };
}
