/**
 * Light encoding of the contact details, so that they appear as plain text
 * in no prerendered HTML and no JavaScript file (simple address harvesters
 * read pages without running them). Not encryption: anyone running the page
 * can read them, which is the point of "Révéler".
 *
 * `encodeContact(value)` is base64 of the reversed UTF-8 JSON;
 * `decodeContact(encoded)` returns the value or throws a SyntaxError on a
 * string that was not made by `encodeContact`. `REVEALED_PAGE` is where
 * the reveal buttons lead without JavaScript (decision 001).
 */

/** Where "Révéler" and "Afficher le numéro" lead without JavaScript: the contact section, details shown. */
export const REVEALED_PAGE = "/coordonnees#contact";

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function encodeContact<T>(value: T): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return toBase64(bytes.reverse());
}

export function decodeContact<T>(encoded: string): T {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0)).reverse();
  } catch {
    throw new SyntaxError("Not an encoded contact value");
  }
  return JSON.parse(new TextDecoder().decode(bytes)) as T;
}
