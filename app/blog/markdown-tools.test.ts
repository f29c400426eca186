import { describe, expect, it } from "vitest";
import { applyMarkdownTool, MARKDOWN_TOOLS } from "./markdown-tools";

const tool = (label: string) => MARKDOWN_TOOLS.find((entry) => entry.label === label)!;
/** What the owner sees after clicking `label` with the caret at the end of `value`, then typing `typed`. */
function clickThenType(label: string, value: string, typed: string): string {
  const after = applyMarkdownTool(tool(label), { value, selectionStart: value.length, selectionEnd: value.length });
  return after.value.slice(0, after.selectionStart) + typed + after.value.slice(after.selectionEnd);
}

describe("the editor's toolbar, nothing selected", () => {
  it("« Intertitre » selects its placeholder: typing replaces it", () => {
    expect(clickThenType("Intertitre", "Bonjour.", "Les arnaques")).toBe("Bonjour.\n\n## Les arnaques\n\n");
  });

  it("« Liste » selects its first point: typing replaces it", () => {
    expect(clickThenType("Liste", "À retenir :", "Ne jamais donner son code")).toBe(
      "À retenir :\n- Ne jamais donner son code\n",
    );
  });

  it("« Gras » and « Lien » select their words too", () => {
    expect(clickThenType("Gras", "", "attention")).toBe("**attention**");
    expect(clickThenType("Lien", "Voir ", "le site")).toBe("Voir [le site](https://adresse)");
  });
});

describe("the editor's toolbar, words selected", () => {
  it("wraps them and puts the caret after", () => {
    const after = applyMarkdownTool(tool("Intertitre"), {
      value: "Avant Titre après",
      selectionStart: 6,
      selectionEnd: 11,
    });
    expect(after.value).toBe("Avant \n\n## Titre\n\n après");
    expect(after.selectionStart).toBe(after.selectionEnd);
    expect(after.value.slice(0, after.selectionStart)).toBe("Avant \n\n## Titre\n\n");
  });
});
