/**
 * Helpers every mail's renderer uses (the contact notification today; the
 * newsletter's and bookings' mails later): header values on one line, an
 * address with a display name, HTML escaping of the values put in a body.
 */
/**
 * An address with a display name, as a header value: `"Marie Dupont"
 * <marie@example.ch>`. The name is quoted (its `"` and `\` escaped, control
 * characters made spaces), so any name is safe; nodemailer parses it back
 * and encodes non-ASCII letters.
 */
export function mailbox(name: string, address: string): string {
  const quoted = oneLine(name).replace(/[\\"]/g, "\\$&");
  return quoted ? `"${quoted}" <${address}>` : address;
}

/** `value` on one line: each run of control characters (line breaks, tabs) becomes a space; trimmed. */
export function oneLine(value: string): string {
  return value.replace(/\p{Cc}+/gu, " ").trim();
}

/** `value` with `& < > " '` escaped, for text and attribute values of an HTML body. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
