/**
 * The mail-authentication records of a domain, read from their DNS text
 * (the desk's sender check, sender-check.server.ts): SPF (RFC 7208),
 * DMARC (RFC 7489) and a DKIM key (RFC 6376). Parsing only, no lookup:
 * each function takes the TXT strings as the resolver returns them (one
 * record = its strings, joined without a space, as the RFCs say) and never
 * throws.
 */
import { createPublicKey } from "node:crypto";

/** A TXT record as Node's resolver gives it (its character-strings) joined into one string. */
export const joinTxt = (record: readonly string[]) => record.join("");

/** The SPF terms that cost a DNS lookup (RFC 7208 section 4.6.4: at most 10 in all). */
const LOOKUP_TERMS = new Set(["include", "a", "mx", "ptr", "exists", "redirect"]);

/** One SPF record, read. */
export interface SpfRecord {
  /** The record as published. */
  text: string;
  /** The domains of its `include:` mechanisms and its `redirect=`, in order. */
  includes: string[];
  /** The qualifier of its `all` mechanism (`-` fail, `~` softfail, `?` neutral, `+` pass), or null without one. */
  all: "-" | "~" | "?" | "+" | null;
  /** Whether it ends by `redirect=` (another domain's record decides). */
  redirect: boolean;
  /** The terms of this record alone that cost a DNS lookup (`include`, `a`, `mx`, `ptr`, `exists`, `redirect`). */
  lookups: number;
}

/** Whether a TXT text is an SPF record (`v=spf1`, then a space or nothing). */
export const isSpf = (text: string) => /^v=spf1(\s|$)/i.test(text.trim());

/** Reads an SPF record's terms (`text` must be one: `isSpf`). */
export function parseSpf(text: string): SpfRecord {
  const record: SpfRecord = { text: text.trim(), includes: [], all: null, redirect: false, lookups: 0 };
  for (const term of text.trim().split(/\s+/).slice(1)) {
    const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(term);
    if (modifier) {
      if (modifier[1]!.toLowerCase() === "redirect") {
        record.redirect = true;
        record.includes.push(modifier[2]!.toLowerCase());
        record.lookups++;
      }
      continue;
    }
    const mechanism = /^([-~?+]?)([a-z0-9]+)(?::([^/]*))?/i.exec(term);
    if (!mechanism) continue;
    const qualifier = (mechanism[1] || "+") as NonNullable<SpfRecord["all"]>;
    const name = mechanism[2]!.toLowerCase();
    if (LOOKUP_TERMS.has(name)) record.lookups++;
    if (name === "include" && mechanism[3]) record.includes.push(mechanism[3].toLowerCase());
    if (name === "all") record.all = qualifier;
  }
  return record;
}

/** A DMARC policy: what receivers do with a mail that fails. */
export type DmarcPolicy = "none" | "quarantine" | "reject";

/** One DMARC record, read. */
export interface DmarcRecord {
  text: string;
  /** Its `p=`, or null when missing or not one of the three (the record is then invalid). */
  policy: DmarcPolicy | null;
  /** Its `sp=` (subdomains), or null. */
  subdomainPolicy: DmarcPolicy | null;
  /** DKIM alignment: `r` relaxed (the default: same organisational domain) or `s` strict (the same domain). */
  adkim: "r" | "s";
  /** SPF alignment, as `adkim`. */
  aspf: "r" | "s";
  /** Its `pct=` (share of failing mails the policy applies to), 100 by default. */
  pct: number;
  /** Whether it asks for reports (`rua=`). */
  reports: boolean;
}

/** Whether a TXT text is a DMARC record (its first tag `v=DMARC1`). */
export const isDmarc = (text: string) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(text.trim());

/** A record's `tag=value` pairs (`;`-separated; names lower-cased, values trimmed). */
function tagsOf(text: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of text.split(";")) {
    const equals = part.indexOf("=");
    if (equals > 0) tags.set(part.slice(0, equals).trim().toLowerCase(), part.slice(equals + 1).trim());
  }
  return tags;
}

const policyOf = (value: string | undefined): DmarcPolicy | null => {
  const lower = value?.toLowerCase();
  return lower === "none" || lower === "quarantine" || lower === "reject" ? lower : null;
};

/** Reads a DMARC record's tags (`text` must be one: `isDmarc`). */
export function parseDmarc(text: string): DmarcRecord {
  const tags = tagsOf(text);
  const pct = Number(tags.get("pct") ?? "100");
  return {
    text: text.trim(),
    policy: policyOf(tags.get("p")),
    subdomainPolicy: policyOf(tags.get("sp")),
    adkim: tags.get("adkim")?.toLowerCase() === "s" ? "s" : "r",
    aspf: tags.get("aspf")?.toLowerCase() === "s" ? "s" : "r",
    pct: Number.isFinite(pct) && pct >= 0 && pct <= 100 ? pct : 100,
    reports: !!tags.get("rua"),
  };
}

/** One DKIM key record, read. */
export interface DkimKey {
  text: string;
  /** Its key type (`k=`, `rsa` by default). */
  type: string;
  /** False when `p=` is empty or missing: the key was withdrawn. */
  present: boolean;
  /** An RSA key's size in bits, or null (another type, or a key that cannot be read). */
  bits: number | null;
  /** Whether the key could be read (an RSA key that is no valid public key cannot verify anything). */
  readable: boolean;
}

/** Whether a TXT text looks like a DKIM key record (`v=DKIM1` or a `p=` tag). */
export const isDkim = (text: string) => /^v\s*=\s*DKIM1\s*(;|$)/i.test(text.trim()) || tagsOf(text).has("p");

/** Reads a DKIM key record (`text`: `isDkim`); an RSA key's size from its DER (`createPublicKey`). */
export function parseDkim(text: string): DkimKey {
  const tags = tagsOf(text);
  const type = (tags.get("k") ?? "rsa").toLowerCase();
  const key = (tags.get("p") ?? "").replace(/\s+/g, "");
  const record: DkimKey = { text: text.trim(), type, present: key !== "", bits: null, readable: key !== "" };
  if (!record.present || type !== "rsa") return record;
  try {
    const details = createPublicKey({
      key: Buffer.from(key, "base64"),
      format: "der",
      type: "spki",
    }).asymmetricKeyDetails;
    record.bits = details?.modulusLength ?? null;
  } catch {
    record.readable = false;
  }
  return record;
}
