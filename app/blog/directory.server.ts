/** Where the repository's article files are read from (no other import: the test harness reads it too). */
import path from "node:path";

/** The folder of the article files: `BLOG_CONTENT_DIR`, else app/content/blog, as an absolute path. */
export function articlesDirectory(): string {
  return path.resolve(process.env.BLOG_CONTENT_DIR ?? path.join("app", "content", "blog"));
}
