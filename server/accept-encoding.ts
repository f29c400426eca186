/**
 * Which encoding of a kept answer a visitor gets (`preferredEncoding`), from
 * their `Accept-Encoding` header: parsed once per spelling (browsers send a
 * handful), for the render cache's Express handler and its fast path.
 */

/** A kept answer's encodings. */
export type Encoding = "br" | "gzip" | "identity";

/** How many `Accept-Encoding` spellings `preferredEncoding` keeps its answer for. */
const ENCODING_SPELLINGS_KEPT = 64;

/** `preferredEncoding`'s answers, by header. */
const encodingOf = new Map<string, Encoding>();

/**
 * The body to send for an `Accept-Encoding` header: brotli when the visitor
 * accepts it at least as much as gzip, else gzip when accepted, else the
 * page as is (also when no header says anything). The order the visitor
 * lists them in does not count: browsers send `gzip, deflate, br, zstd`,
 * all of equal weight, and get brotli, as the compression middleware gives
 * other answers. The answers for the first 64 spellings are kept; any other
 * spelling (a client making one per request) is parsed each time.
 */
export function preferredEncoding(header: string | undefined): Encoding {
  if (header === undefined) return "identity";
  let encoding = encodingOf.get(header);
  if (!encoding) {
    encoding = parsedEncoding(header);
    if (encodingOf.size < ENCODING_SPELLINGS_KEPT) encodingOf.set(header, encoding);
  }
  return encoding;
}

/** `preferredEncoding`'s rule, on the header parsed. */
function parsedEncoding(header: string): Encoding {
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  const [br, gzip] = [weightOf("br"), weightOf("gzip")];
  if (br > 0 && br >= gzip) return "br";
  return gzip > 0 ? "gzip" : "identity";
}
