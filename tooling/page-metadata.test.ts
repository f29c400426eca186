/** The pages' metadata check (tooling/page-metadata.ts): what it accepts, what it rejects and how it says so. */
import { describe, expect, it } from "vitest";
import { metadataProblems, readHeadMetadata } from "./page-metadata";

const TITLE = "<title>Blog | Site</title>";
const DESCRIPTION = '<meta name="description" content="Des guides simples."/>';
const CANONICAL = '<link rel="canonical" href="https://www.example.ch/blog"/>';
const NOINDEX = '<meta name="robots" content="noindex"/>';

/** A page whose head holds `head` and whose body has an SVG with a title of its own (not the page's). */
const page = (...head: string[]) =>
  `<!DOCTYPE html><html lang="fr-CH"><head><meta charSet="utf-8"/>${head.join("")}</head>` +
  `<body><svg><title>Icône</title></svg><p>Texte</p></body></html>`;

describe("metadataProblems", () => {
  it("accepts a page with its title, description and canonical URL", () => {
    expect(metadataProblems(page(TITLE, DESCRIPTION, CANONICAL))).toEqual([]);
  });

  it("rejects a page without <title>, even when the body has an SVG <title>", () => {
    expect(metadataProblems(page(DESCRIPTION, CANONICAL))).toEqual(["no <title> (or an empty one)"]);
  });

  it("rejects a page without description", () => {
    expect(metadataProblems(page(TITLE, CANONICAL))).toEqual(['no <meta name="description"> (or an empty one)']);
  });

  it("rejects a page without canonical URL", () => {
    expect(metadataProblems(page(TITLE, DESCRIPTION))).toEqual([
      'no <link rel="canonical"> (required on every page without noindex)',
    ]);
  });

  it("rejects empty values and a relative canonical URL", () => {
    expect(
      metadataProblems(
        page("<title> </title>", '<meta name="description" content=""/>', '<link rel="canonical" href="/blog"/>'),
      ),
    ).toEqual([
      "no <title> (or an empty one)",
      'no <meta name="description"> (or an empty one)',
      '<link rel="canonical"> is not an absolute URL (got "/blog")',
    ]);
  });

  it("lets a noindex page go without canonical URL, never without title and description", () => {
    expect(metadataProblems(page(TITLE, DESCRIPTION, NOINDEX))).toEqual([]);
    expect(metadataProblems(page(NOINDEX))).toHaveLength(2);
  });
});

describe("readHeadMetadata", () => {
  it("reads the head's tags, decodes entities and parses JSON-LD", () => {
    const metadata = readHeadMetadata(
      page(
        "<title>Formation &amp; Assistance</title>",
        DESCRIPTION,
        CANONICAL,
        '<meta property="og:image" content="https://www.example.ch/og/site.png"/>',
        '<script type="application/ld+json">{"@type":"BlogPosting","headline":"A \\u0026 B"}</script>',
      ),
    );
    expect(metadata).toEqual({
      title: "Formation & Assistance",
      description: "Des guides simples.",
      canonical: "https://www.example.ch/blog",
      robots: null,
      properties: { "og:image": "https://www.example.ch/og/site.png" },
      jsonLd: [{ "@type": "BlogPosting", headline: "A & B" }],
    });
  });
});
