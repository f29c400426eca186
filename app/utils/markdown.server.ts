/**
 * The site's one Markdown pipeline (articles, newsletter letters):
 * GitHub-flavoured Markdown to HTML by unified, raw HTML in the Markdown
 * dropped, then `rehype-sanitize` with GitHub's rules narrowed to the
 * addresses a reader may follow: `http:`, `https:`, `mailto:`, `tel:` and
 * relative ones (a `javascript:`, `data:` or `vbscript:` link or image
 * loses its address, its words stay). Each caller's own transforms (heading
 * ids, pictures, a mail's inline styles) run on the safe tree; French
 * typography (`typeset`) comes last, outside `<code>` and `<pre>`.
 *
 * `markdownRenderer(plugins)` → `render(markdown, data?)`: the HTML, as a
 * string; `data` reaches the plugins as the file's `data`.
 */
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified, type PluggableList } from "unified";
import { VFile } from "vfile";
import { typeset } from "./typography";

/** A hast node, as far as the site's transforms read it. */
export interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/** The addresses a rendered link (`href`) or image (`src`) may keep; relative ones always pass. */
export const SAFE_PROTOCOLS = { href: ["http", "https", "mailto", "tel"], src: ["http", "https"] } as const;

const schema = {
  ...defaultSchema,
  // No id is the writer's: raw HTML is dropped, footnotes' ids come prefixed ("user-content-fn-1") from
  // remark-rehype, headings' from rehype-slug afterwards. A second prefix would break the footnotes' links.
  clobberPrefix: "",
  protocols: {
    ...defaultSchema.protocols,
    href: [...SAFE_PROTOCOLS.href],
    src: [...SAFE_PROTOCOLS.src],
    cite: ["http", "https"],
    longDesc: ["http", "https"],
  },
};

/** Applies `typeset` to the text, not to `<code>` and `<pre>`. */
function rehypeTypeset() {
  const visit = (node: HastNode) => {
    if (node.type === "text" && node.value !== undefined) node.value = typeset(node.value);
    else if (node.tagName !== "code" && node.tagName !== "pre") node.children?.forEach(visit);
  };
  return visit;
}

/**
 * A renderer of Markdown to safe HTML, with `plugins` (rehype transforms)
 * run after the sanitising and before the typesetting.
 * @returns `render(markdown, data?)`, synchronous; it throws only on a plugin's error.
 */
export function markdownRenderer(plugins: PluggableList = []): (markdown: string, data?: object) => string {
  const processor = unified()
    .use(remarkParse)
    .use(remarkGfm)
    // Footnotes' words in French (remark-rehype writes "Footnotes" and "Back to reference 1").
    .use(remarkRehype, {
      footnoteLabel: "Notes",
      footnoteBackLabel: (referenceIndex: number) => `Retour à l’appel de note ${referenceIndex + 1}`,
    })
    .use(rehypeSanitize, schema)
    .use(plugins)
    .use(rehypeTypeset)
    .use(rehypeStringify);
  return (markdown, data = {}) => String(processor.processSync(new VFile({ value: markdown, data: { ...data } })));
}
