import { describe, expect, it } from "vitest";
import { markdownRenderer } from "./markdown.server";

const render = markdownRenderer();

describe("the Markdown pipeline", () => {
  it("links a footnote to its note and back, in French", () => {
    const html = render("Une note[^1].\n\n[^1]: La note.");
    const target = /href="#([^"]+)"[^>]*data-footnote-ref/.exec(html)?.[1];
    expect(target).toBeTruthy();
    expect(html).toContain(`<li id="${target}">`);
    expect(html).toContain(">Notes</h2>");
    expect(html).toContain('aria-label="Retour à l’appel de note 1"');
  });

  it("keeps telephone links and drops a javascript: one, in the plain pipeline too", () => {
    const html = render("[Appeler](tel:+41791234567) [piège](javascript:alert(1))");
    expect(html).toContain('href="tel:+41791234567"');
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toContain("piège");
  });

  it("typesets the text the Swiss French way, not the code", () => {
    const html = render("Vraiment ? `a ? b`");
    expect(html).toContain("Vraiment\u202f?");
    expect(html).toContain("<code>a ? b</code>");
  });
});
