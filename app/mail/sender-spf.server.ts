/**
 * The SPF part of the sender check (app/mail/sender-check.server.ts): the
 * domain's `v=spf1` record, the lookups it costs through its includes
 * (followed up to four levels; receivers allow 10, RFC 7208 section 4.6.4),
 * its ending (`-all`, `~all`), and whether it names the sending provider
 * (SMTP_URL's host, by the providers the check knows).
 */
import { isSpf, parseSpf, type SpfRecord } from "./dns-records";
import { ask, textsOf, type Answer, type DnsLookups } from "./dns-lookups.server";
import { checkResult, notChecked, NO_ANSWER, type CheckResult } from "./sender-verdicts";

/** The sending providers whose SPF include the check knows: SMTP host suffixes, and the include they ask for. */
export const PROVIDERS: readonly { name: string; hosts: readonly string[]; spf: string }[] = [
  { name: "Infomaniak", hosts: ["infomaniak.com", "infomaniak.ch"], spf: "spf.infomaniak.ch" },
  { name: "Google Workspace", hosts: ["gmail.com", "google.com", "googlemail.com"], spf: "_spf.google.com" },
  { name: "Microsoft 365", hosts: ["office365.com", "outlook.com"], spf: "spf.protection.outlook.com" },
  { name: "Mailgun", hosts: ["mailgun.org"], spf: "mailgun.org" },
  { name: "OVHcloud", hosts: ["ovh.net", "ovh.com"], spf: "mx.ovh.com" },
  { name: "Gandi", hosts: ["gandi.net"], spf: "_mailcust.gandi.net" },
];

/** Whether `name` is `domain` or below it. */
export const within = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`);

/** A name's last two labels (`smtp.eu.mailgun.org` → `mailgun.org`): close enough to tell a provider's names. */
const lastTwoLabels = (name: string) => name.split(".").slice(-2).join(".");

/** SMTP_URL's host, or null without one (or one that is no URL). */
export function smtpHost(smtpUrl: string | undefined): string | null {
  if (!smtpUrl) return null;
  try {
    return new URL(smtpUrl).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** The SPF lookups of a record and of its includes, followed up to four levels deep. */
interface SpfCount {
  /** Lookups counted (a lower bound when `complete` is false). */
  count: number;
  /** False when an include did not answer or the walk stopped before the end. */
  complete: boolean;
  /** Includes that lead to no SPF record (receivers then fail SPF altogether). */
  broken: string[];
}

async function countSpfLookups(lookups: DnsLookups, record: SpfRecord, timeoutMs: number): Promise<SpfCount> {
  const result: SpfCount = { count: record.lookups, complete: true, broken: [] };
  const seen = new Set<string>(record.includes);
  let frontier = record.includes;
  for (let depth = 0; frontier.length && result.count <= 10; depth++) {
    if (depth === 4) {
      result.complete = false;
      break;
    }
    const answers = await Promise.all(frontier.map((name) => ask(() => lookups.resolveTxt(name), timeoutMs)));
    const next: string[] = [];
    answers.forEach((answer, index) => {
      if (answer.kind === "failed") {
        result.complete = false;
        return;
      }
      const spf = textsOf(answer, isSpf)[0];
      if (!spf) {
        result.broken.push(frontier[index]!);
        return;
      }
      const included = parseSpf(spf);
      result.count += included.lookups;
      for (const name of included.includes.filter((one) => !seen.has(one))) {
        next.push(name);
        seen.add(name);
      }
    });
    frontier = next;
  }
  return result;
}

/** Whether the SPF record names the sending provider: true, false, or null when the check cannot tell. */
function namesProvider(record: SpfRecord, host: string | null, domain: string): boolean | null {
  if (!host || within(host, domain)) return null;
  const known = PROVIDERS.find((provider) => provider.hosts.some((suffix) => within(host, suffix)));
  const hostDomain = lastTwoLabels(host);
  if (record.includes.some((name) => (known && within(name, known.spf)) || lastTwoLabels(name) === hostDomain))
    return true;
  return known ? false : null;
}

/**
 * The SPF check of `domain` from its TXT `answer` (its includes looked up
 * through `lookups`, at most `timeoutMs` each), with `host` the sending
 * server (SMTP_URL's host) or null. `namesProvider` is true or false when
 * the record does or does not name that server's provider, null when the
 * check cannot tell (the alignment check reads it). Never throws.
 */
export async function checkSpf(
  lookups: DnsLookups,
  domain: string,
  answer: Answer<string[][]>,
  host: string | null,
  timeoutMs: number,
): Promise<{ result: CheckResult; namesProvider: boolean | null }> {
  if (answer.kind === "failed") return { result: notChecked(NO_ANSWER), namesProvider: null };
  const known = host ? PROVIDERS.find((provider) => provider.hosts.some((suffix) => within(host, suffix))) : undefined;
  const include = known ? `include:${known.spf}` : "include:(ce que votre fournisseur d’envoi indique)";
  const records = textsOf(answer, isSpf);
  if (records.length === 0)
    return {
      result: checkResult(
        "introuvable",
        [],
        [`Le domaine ${domain} ne publie aucun enregistrement SPF.`],
        [
          `Demandez d’ajouter sur ${domain} un enregistrement TXT \`v=spf1 ${include} ~all\` : il dit quels serveurs ont le droit d’envoyer vos e-mails.`,
        ],
      ),
      namesProvider: null,
    };
  if (records.length > 1)
    return {
      result: checkResult(
        "a-corriger",
        records,
        [`Le domaine ${domain} publie ${records.length} enregistrements SPF : les destinataires les refusent tous.`],
        ["Demandez de les réunir en un seul enregistrement qui commence par `v=spf1`."],
      ),
      namesProvider: null,
    };
  const record = parseSpf(records[0]!);
  const findings: string[] = [`Un enregistrement SPF est publié pour ${domain}.`];
  const fixes: string[] = [];
  if (record.all === "-" || record.all === "~")
    findings.push(
      record.all === "-"
        ? "Il se termine par `-all` : les e-mails venus d’autres serveurs sont refusés."
        : "Il se termine par `~all` : les e-mails venus d’autres serveurs sont marqués comme suspects.",
    );
  else if (record.redirect) findings.push("Il renvoie à l’enregistrement d’un autre domaine (`redirect=`).");
  else if (record.all === "+") {
    findings.push("Il se termine par `+all` : n’importe quel serveur du monde peut envoyer en votre nom.");
    fixes.push("Demandez de remplacer `+all` par `~all` à la fin de l’enregistrement SPF.");
  } else {
    findings.push("Il ne dit pas quoi faire des e-mails venus d’autres serveurs.");
    fixes.push("Demandez de terminer l’enregistrement SPF par `~all`.");
  }
  const counted = await countSpfLookups(lookups, record, timeoutMs);
  if (counted.count > 10) {
    findings.push(
      `Il demande ${counted.complete ? "" : "au moins "}${counted.count} consultations DNS ; la limite est de 10, au-delà SPF échoue.`,
    );
    fixes.push(
      "Demandez de retirer de l’enregistrement SPF les `include:` des services que vous n’utilisez plus, pour rester sous 10 consultations.",
    );
  } else
    findings.push(
      counted.complete
        ? `Il demande ${counted.count} consultation${counted.count > 1 ? "s" : ""} DNS sur les 10 permises.`
        : `Il demande au moins ${counted.count} consultation${counted.count > 1 ? "s" : ""} DNS sur les 10 permises (certaines n’ont pas pu être comptées).`,
    );
  for (const name of counted.broken) {
    findings.push(`${name}, qu’il inclut, ne publie aucun enregistrement SPF : SPF échoue.`);
    fixes.push(`Demandez de retirer ou de corriger \`include:${name}\` dans l’enregistrement SPF.`);
  }
  const named = namesProvider(record, host, domain);
  if (named === true) findings.push(`Il nomme votre serveur d’envoi (${host}).`);
  else if (named === false && known) {
    findings.push(`Il ne nomme pas ${known.name}, par qui le site envoie ses e-mails.`);
    fixes.push(`Demandez d’ajouter \`include:${known.spf}\` à l’enregistrement SPF, avant \`~all\` ou \`-all\`.`);
  } else if (host)
    findings.push(
      `Nous ne savons pas dire s’il autorise votre serveur d’envoi (${host}) : demandez à votre fournisseur quel \`include:\` il faut.`,
    );
  return {
    result: { verdict: fixes.length ? "a-corriger" : "bon", records, findings, fixes },
    namesProvider: named,
  };
}
