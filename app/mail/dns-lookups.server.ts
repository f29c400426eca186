/**
 * DNS lookups of the sender check (app/mail/sender-check.server.ts): the
 * resolver it asks (`dnsResolver`: Node's `dns/promises` Resolver, one try
 * of at most `timeoutMs` a server; tests give a fake one or a local DNS
 * server), and `ask`, which turns a lookup into an `Answer` that never
 * throws: records, none (the name or the type does not exist), or no
 * answer (no network, a server down or slow: ECONNREFUSED, ETIMEOUT...).
 */
import { Resolver } from "node:dns/promises";
import { joinTxt } from "./dns-records";

/** What the check asks of a DNS resolver (Node's `Resolver` has both). */
export interface DnsLookups {
  resolveTxt(name: string): Promise<string[][]>;
  resolveMx(name: string): Promise<{ priority: number; exchange: string }[]>;
}

/** The longest wait for one DNS answer, in milliseconds. */
export const DNS_TIMEOUT_MS = 3000;

/**
 * Node's resolver, one try of at most `timeoutMs` a server; `servers`
 * (DNS_SERVERS: `"192.0.2.53"`, `"127.0.0.1:5353"`, `"[::1]:53"`) instead
 * of the system's when given.
 * @throws Error (ERR_INVALID_IP_ADDRESS) when a server is no IP address with an optional port.
 */
export function dnsResolver(servers: readonly string[] = [], timeoutMs = DNS_TIMEOUT_MS): DnsLookups {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.length) resolver.setServers(servers);
  return resolver;
}

/** A lookup's outcome: records, none (the name or the type does not exist), or no answer. */
export type Answer<T> = { kind: "found"; value: T } | { kind: "none" } | { kind: "failed"; code: string };

/** The resolver's codes that mean "no such record", as opposed to "no answer". */
const NO_RECORD = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN", "NOTFOUND", "NODATA"]);

/** `lookup()`'s outcome within `timeoutMs` (a resolver that hangs counts as ETIMEOUT). */
export async function ask<T>(lookup: () => Promise<T>, timeoutMs: number): Promise<Answer<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Answer<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "failed", code: "ETIMEOUT" }), timeoutMs);
  });
  const answer = lookup().then(
    (value): Answer<T> => ({ kind: "found", value }),
    (error: unknown): Answer<T> => {
      const code = String((error as { code?: unknown } | null)?.code ?? "");
      return NO_RECORD.has(code) ? { kind: "none" } : { kind: "failed", code: code || "EUNKNOWN" };
    },
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The TXT texts of an answer that `test` accepts (none when it failed). */
export const textsOf = (answer: Answer<string[][]>, test: (text: string) => boolean) =>
  answer.kind === "found" ? answer.value.map(joinTxt).filter(test) : [];

/** Names under which nothing real can be looked up (RFC 2606, RFC 6761, `.local`, `.internal`). */
export function isReservedDomain(domain: string): boolean {
  const name = domain.toLowerCase().replace(/\.$/, "");
  return (
    !name.includes(".") ||
    /(^|\.)(localhost|test|example|invalid|local|internal)$/.test(name) ||
    /(^|\.)example\.(com|net|org)$/.test(name)
  );
}
