/** A letter's body: what the owner writes in Markdown, made safe for the archive page and for mail clients. */
import { describe, expect, it } from "vitest";
import { letterMail, renderLetterBody } from "./letter.server";

describe("renderLetterBody", () => {
  it("drops links to javascript: and data: addresses, keeping their text", () => {
    const html = renderLetterBody(
      "[Cliquez](javascript:alert(1)) ou [ici](JaVaScRiPt:alert(2)) ou [là](data:text/html,<script>alert(3)</script>)",
    );
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/data:/i);
    expect(html).toContain("Cliquez");
    expect(html).toContain("ici");
  });

  it("keeps web and mail links, with the letter's styles", () => {
    const html = renderLetterBody("Voir [le site](https://www.example.ch/cours) ou [m’écrire](mailto:a@example.ch).");
    expect(html).toContain('href="https://www.example.ch/cours"');
    expect(html).toContain('href="mailto:a@example.ch"');
    expect(html).toMatch(/<a [^>]*style="color: #1d4ed8; text-decoration: underline;"/);
  });

  it("drops raw HTML written in the Markdown", () => {
    const html = renderLetterBody('Bonjour <img src="x" onerror="alert(1)"> <script>alert(2)</script>');
    expect(html).not.toMatch(/onerror|<script/i);
  });
});

describe("a letter's links (issue 33, item 8)", () => {
  const hostile = [
    "[vb](vbscript:msgbox(4))",
    "[espacé](%20javascript:alert(5))",
    "![image](javascript:alert(6))",
    "![image](data:image/svg+xml,<svg/onload=alert(7)>)",
    '<img src="javascript:alert(8)">',
    '<a href="javascript:alert(9)">brut</a>',
    "[cours](https://www.example.ch/cours) [appeler](tel:+41791234567) [tarifs](/tarifs)",
  ].join("\n\n");

  it("drop vbscript:, javascript: and data: addresses of links and images, in the archive page's HTML and the mail's", () => {
    const mail = letterMail({
      subject: "Lettre",
      markdown: hostile,
      unsubscribeUrl: "https://www.example.ch/newsletter/desinscription/x",
      archiveUrl: "https://www.example.ch/newsletter/lettres/1",
    });
    for (const html of [renderLetterBody(hostile), mail.html]) {
      expect(html).not.toMatch(/javascript:|data:|vbscript:|alert\(|msgbox/i);
      expect(html).toContain("vb");
      for (const href of ["https://www.example.ch/cours", "tel:+41791234567", "/tarifs"])
        expect(html).toContain(`href="${href}"`);
    }
  });
});
