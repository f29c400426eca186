/**
 * The article editor's toolbar (app/blog/article-editor.tsx): what each
 * button writes around the selection. With nothing selected, a button
 * writes placeholder words and selects them, so that what the owner types
 * next replaces them (« Intertitre » never stays as the heading).
 */

/** A toolbar button: its label, how it wraps the selection, and its placeholder words. */
export interface MarkdownTool {
  label: string;
  /** The words written when nothing is selected (selected afterwards). */
  placeholder: string;
  /** The Markdown for `text` (the selection, or the placeholder). */
  wrap(text: string): string;
}

export const MARKDOWN_TOOLS: readonly MarkdownTool[] = [
  { label: "Intertitre", placeholder: "Intertitre", wrap: (text) => `\n\n## ${text}\n\n` },
  { label: "Gras", placeholder: "texte en gras", wrap: (text) => `**${text}**` },
  {
    label: "Liste",
    placeholder: "premier point",
    wrap: (text) =>
      `\n${text
        .split("\n")
        .map((line) => `- ${line.replace(/^- /, "")}`)
        .join("\n")}\n`,
  },
  { label: "Lien", placeholder: "texte du lien", wrap: (text) => `[${text}](https://adresse)` },
];

/** A text and its selection (UTF-16 offsets, as a textarea's). */
export interface TextSelection {
  value: string;
  selectionStart: number;
  selectionEnd: number;
}

/**
 * `tool` applied to `value`'s selection: the new text, what replaced the
 * selection (`written`), and the selection after it (the placeholder when nothing was selected, else the caret
 * after what was written).
 */
export function applyMarkdownTool(tool: MarkdownTool, { value, selectionStart, selectionEnd }: TextSelection) {
  const selected = value.slice(selectionStart, selectionEnd);
  const written = tool.wrap(selected || tool.placeholder);
  const next = value.slice(0, selectionStart) + written + value.slice(selectionEnd);
  if (selected) {
    const caret = selectionStart + written.length;
    return { value: next, written, selectionStart: caret, selectionEnd: caret };
  }
  const start = selectionStart + written.indexOf(tool.placeholder);
  return { value: next, written, selectionStart: start, selectionEnd: start + tool.placeholder.length };
}
