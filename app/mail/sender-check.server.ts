/**
 * The sender check of the desk's « Envoi des e-mails » page (issue 32 item
 * 2, decision 047): for the domain of MAIL_FROM, what the DNS says of SPF,
 * DKIM (at the selector the owner gives, or a few common ones), DMARC, the
 * MX records and the From's alignment, each with a verdict and, in plain
 * French for the owner to pass on, what to ask of whoever manages the
 * domain; and Gmail's and Yahoo's rules for senders as a checklist.
 *
 * `checkSender(options)` never throws and never waits longer than about
 * `timeoutMs` a lookup (all lookups of a step run at once; the SPF walk
 * follows at most four levels of `include:`): a lookup that gets no answer
 * (no network, a DNS server down or slow: ECONNREFUSED, ETIMEOUT...) makes
 * its check « non vérifié », never « introuvable »; when every lookup
 * failed so, the report says the server could not reach the DNS
 * (`offline`). A reserved name (localhost, `.test`, `example.com`...) is
 * not looked up at all (`reserved`). Lookups go through `lookups`
 * (`dnsResolver()`: Node's `dns/promises` Resolver with a timeout; tests
 * give a fake one or a local DNS server).
 */
import { Resolver } from "node:dns/promises";
import {
  isDkim,
  isDmarc,
  isSpf,
  joinTxt,
  parseDkim,
  parseDmarc,
  parseSpf,
  type DkimKey,
  type DmarcRecord,
  type SpfRecord,
} from "./dns-records";
import { mailFromDomain } from "./provider-events.server";

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

/**
 * How one check came out: « bon », « à corriger », « introuvable » (the
 * record is not published), or « non vérifié » (the DNS did not answer,
 * or nothing could be looked up without a selector).
 */
export type Verdict = "bon" | "a-corriger" | "introuvable" | "non-verifie";

/** One check of the page. */
export interface CheckResult {
  verdict: Verdict;
  /** The records found, as published (shown as they are, for whoever manages the domain). */
  records: string[];
  /** What the check sees, in French, a sentence each; DNS text between backticks (`v=spf1 -all`), verbatim. */
  findings: string[];
  /** What to ask of whoever manages the domain, as `findings`; empty when nothing is to do. */
  fixes: string[];
}

/** One rule of Gmail's and Yahoo's for senders: kept (true), not kept (false), or not known here (null). */
export interface ChecklistItem {
  label: string;
  kept: boolean | null;
  note: string;
}

/** The whole check of MAIL_FROM's domain. */
export interface SenderReport {
  domain: string;
  /** A reserved or local name (localhost, `.test`, `example.com`...): nothing looked up, every check « non vérifié ». */
  reserved: boolean;
  /** No lookup got an answer (no network, or the DNS server does not answer). */
  offline: boolean;
  /** The DKIM selector asked for, or null (then common selectors were tried). */
  selector: string | null;
  /** The sending server (SMTP_URL's host) and its provider's name when the check knows it; null without SMTP_URL. */
  provider: { host: string; name: string | null } | null;
  spf: CheckResult;
  dkim: CheckResult;
  dmarc: CheckResult;
  mx: CheckResult;
  alignment: CheckResult;
  checklist: ChecklistItem[];
}

/** A lookup's outcome: records, none (the name or the type does not exist), or no answer. */
type Answer<T> = { kind: "found"; value: T } | { kind: "none" } | { kind: "failed"; code: string };

/** The resolver's codes that mean "no such record", as opposed to "no answer". */
const NO_RECORD = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN", "NOTFOUND", "NODATA"]);

/** `lookup()`'s outcome within `timeoutMs` (a resolver that hangs counts as ETIMEOUT). */
async function ask<T>(lookup: () => Promise<T>, timeoutMs: number): Promise<Answer<T>> {
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
const textsOf = (answer: Answer<string[][]>, test: (text: string) => boolean) =>
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

/** The sending providers whose SPF include the check knows: SMTP host suffixes, and the include they ask for. */
const PROVIDERS: readonly { name: string; hosts: readonly string[]; spf: string }[] = [
  { name: "Infomaniak", hosts: ["infomaniak.com", "infomaniak.ch"], spf: "spf.infomaniak.ch" },
  { name: "Google Workspace", hosts: ["gmail.com", "google.com", "googlemail.com"], spf: "_spf.google.com" },
  { name: "Microsoft 365", hosts: ["office365.com", "outlook.com"], spf: "spf.protection.outlook.com" },
  { name: "Mailgun", hosts: ["mailgun.org"], spf: "mailgun.org" },
  { name: "OVHcloud", hosts: ["ovh.net", "ovh.com"], spf: "mx.ovh.com" },
  { name: "Gandi", hosts: ["gandi.net"], spf: "_mailcust.gandi.net" },
];

/** Whether `name` is `domain` or below it. */
const within = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`);

/** A name's last two labels (`smtp.eu.mailgun.org` → `mailgun.org`): close enough to tell a provider's names. */
const lastTwoLabels = (name: string) => name.split(".").slice(-2).join(".");

/** SMTP_URL's host, or null without one (or one that is no URL). */
function smtpHost(smtpUrl: string | undefined): string | null {
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

/** A check's result, its fields in order. */
const checkResult = (verdict: Verdict, records: string[], findings: string[], fixes: string[] = []): CheckResult => ({
  verdict,
  records,
  findings,
  fixes,
});

/** A check that could not be made: the DNS did not answer. */
const notChecked = (why: string): CheckResult => checkResult("non-verifie", [], [why]);

const NO_ANSWER = "Le serveur DNS n’a pas répondu à temps : rien n’a pu être vérifié. Réessayez plus tard.";

/** Whether a check got no answer from the DNS. */
const silent = (check: CheckResult) => check.findings[0] === NO_ANSWER;

/** Whether the SPF record names the sending provider: true, false, or null when the check cannot tell. */
function namesProvider(record: SpfRecord, host: string | null, domain: string): boolean | null {
  if (!host || within(host, domain)) return null;
  const known = PROVIDERS.find((provider) => provider.hosts.some((suffix) => within(host, suffix)));
  const hostDomain = lastTwoLabels(host);
  if (record.includes.some((name) => (known && within(name, known.spf)) || lastTwoLabels(name) === hostDomain))
    return true;
  return known ? false : null;
}

async function checkSpf(
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

/** Selectors tried when the owner gives none (Google, Microsoft 365 and common defaults). */
export const COMMON_SELECTORS = ["google", "selector1", "selector2", "default", "dkim", "mail", "k1", "s1"] as const;

/** Whether `selector` can name a DKIM key: DNS labels of letters, digits and hyphens, dot-separated. */
export const isSelector = (selector: string) =>
  selector.length <= 200 &&
  /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/i.test(selector);

/** The verdict of a DKIM key found at `name`. */
function dkimVerdict(name: string, key: DkimKey, guessed: boolean): CheckResult {
  const where = guessed ? `sous le sélecteur courant « ${name.split("._domainkey.")[0]} » (${name})` : `à ${name}`;
  const records = [key.text];
  if (!key.present)
    return {
      verdict: "a-corriger",
      records,
      findings: [`La clé DKIM publiée ${where} est vide : elle a été retirée.`],
      fixes: ["Demandez à votre fournisseur d’envoi la clé DKIM actuelle et publiez-la à la place de celle-ci."],
    };
  if (!key.readable || (key.bits !== null && key.bits < 1024))
    return {
      verdict: "a-corriger",
      records,
      findings: [
        key.readable
          ? `La clé DKIM publiée ${where} est trop courte (${key.bits} bits) : elle n’est plus acceptée.`
          : `La clé DKIM publiée ${where} est illisible : une partie manque peut-être.`,
      ],
      fixes: [
        "Demandez à votre fournisseur d’envoi une nouvelle clé DKIM (2048 bits) et recopiez-la en entier dans le DNS.",
      ],
    };
  const size = key.bits
    ? ` (${key.bits} bits${key.bits < 2048 ? " ; 2048 bits est recommandé à la prochaine occasion" : ""})`
    : "";
  return {
    verdict: "bon",
    records,
    findings: [`Une clé DKIM est publiée ${where}${size} : vos e-mails peuvent être signés au nom de votre domaine.`],
    fixes: [],
  };
}

async function checkDkim(
  lookups: DnsLookups,
  domain: string,
  selector: string | null,
  timeoutMs: number,
): Promise<CheckResult> {
  const selectors = selector ? [selector] : [...COMMON_SELECTORS];
  const names = selectors.map((one) => `${one}._domainkey.${domain}`);
  const answers = await Promise.all(names.map((name) => ask(() => lookups.resolveTxt(name), timeoutMs)));
  const foundAt = answers.findIndex((answer) => textsOf(answer, isDkim).length > 0);
  if (foundAt >= 0) return dkimVerdict(names[foundAt]!, parseDkim(textsOf(answers[foundAt]!, isDkim)[0]!), !selector);
  if (answers.every((answer) => answer.kind === "failed")) return notChecked(NO_ANSWER);
  if (!selector)
    return {
      verdict: "non-verifie",
      records: [],
      findings: ["Aucune clé DKIM n’est publiée sous les sélecteurs les plus courants."],
      fixes: [
        "Demandez à votre fournisseur d’envoi quel est votre « sélecteur DKIM » (un mot comme « mail » ou « s1 ») et indiquez-le ci-dessus.",
      ],
    };
  return {
    verdict: "introuvable",
    records: [],
    findings: [`Aucune clé DKIM n’est publiée à ${names[0]}.`],
    fixes: [
      `Vérifiez le sélecteur « ${selector} ». Votre fournisseur d’envoi donne l’enregistrement DKIM de votre domaine (un TXT ou un CNAME nommé \`${selector}._domainkey\`) : demandez de l’ajouter sur ${domain}.`,
    ],
  };
}

/** `domain`, then its parents down to two labels (`a.b.exemple.ch`, `b.exemple.ch`, `exemple.ch`). */
function selfAndParents(domain: string): string[] {
  const labels = domain.split(".");
  return labels.slice(0, Math.max(1, labels.length - 1)).map((_, index) => labels.slice(index).join("."));
}

async function checkDmarc(
  lookups: DnsLookups,
  domain: string,
  timeoutMs: number,
): Promise<{ result: CheckResult; record: DmarcRecord | null }> {
  const candidates = selfAndParents(domain);
  const answers = await Promise.all(
    candidates.map((name) => ask(() => lookups.resolveTxt(`_dmarc.${name}`), timeoutMs)),
  );
  const at = answers.findIndex((answer) => textsOf(answer, isDmarc).length > 0);
  // The domain's own answer decides: without it nothing is known; a parent's record counts only when it has none.
  if (answers[0]!.kind === "failed") return { result: notChecked(NO_ANSWER), record: null };
  if (at < 0)
    return {
      result: checkResult(
        "introuvable",
        [],
        [`Le domaine ${domain} ne publie aucun enregistrement DMARC.`],
        [
          `Demandez d’ajouter un enregistrement TXT nommé \`_dmarc.${domain}\` qui contient \`v=DMARC1; p=none\`. Gmail et Yahoo l’exigent depuis 2024.`,
        ],
      ),
      record: null,
    };
  const records = textsOf(answers[at]!, isDmarc);
  const name = `_dmarc.${candidates[at]}`;
  if (records.length > 1)
    return {
      result: checkResult(
        "a-corriger",
        records,
        [`${name} publie ${records.length} enregistrements DMARC : les destinataires n’en tiennent aucun compte.`],
        [`Demandez de n’en garder qu’un seul à ${name}.`],
      ),
      record: null,
    };
  const record = parseDmarc(records[0]!);
  const policy = at > 0 ? (record.subdomainPolicy ?? record.policy) : record.policy;
  if (!policy)
    return {
      result: {
        verdict: "a-corriger",
        records,
        findings: [`L’enregistrement DMARC de ${name} n’a pas de règle \`p=\` valable : il ne compte pas.`],
        fixes: [`Demandez d’écrire à ${name} \`v=DMARC1; p=none\` (ou \`p=quarantine\`).`],
      },
      record,
    };
  const findings = [
    at > 0
      ? `Le domaine ${domain} suit l’enregistrement DMARC de ${candidates[at]} (${name}).`
      : `Un enregistrement DMARC est publié à ${name}.`,
    policy === "none"
      ? "Sa règle est `p=none` : les destinataires ne refusent rien, ils observent. C’est ce que Gmail et Yahoo demandent au minimum ; quand tout est en ordre depuis quelques semaines, `p=quarantine` protège mieux votre nom."
      : policy === "quarantine"
        ? "Sa règle est `p=quarantine` : un e-mail qui usurpe votre adresse va dans les indésirables."
        : "Sa règle est `p=reject` : un e-mail qui usurpe votre adresse est refusé.",
  ];
  if (record.pct < 100) findings.push(`Elle ne s’applique qu’à ${record.pct} % des e-mails en échec (\`pct=\`).`);
  return { result: { verdict: "bon", records, findings, fixes: [] }, record };
}

function checkMx(domain: string, answer: Answer<{ priority: number; exchange: string }[]>): CheckResult {
  if (answer.kind === "failed") return notChecked(NO_ANSWER);
  const mx = answer.kind === "found" ? [...answer.value].sort((a, b) => a.priority - b.priority) : [];
  const records = mx.map((record) => `${record.priority} ${record.exchange || "."}`);
  if (mx.length === 0)
    return {
      verdict: "introuvable",
      records,
      findings: [`Le domaine ${domain} n’a pas d’enregistrement MX : il ne peut recevoir aucun e-mail.`],
      fixes: [
        `Certains destinataires refusent les e-mails d’un domaine qui ne peut pas en recevoir, et les avis de non-remise se perdent. Demandez d’ajouter les enregistrements MX que donne votre fournisseur de messagerie pour ${domain}.`,
      ],
    };
  if (mx.every((record) => record.exchange === "" || record.exchange === "."))
    return {
      verdict: "a-corriger",
      records,
      findings: [`Le domaine ${domain} déclare qu’il ne reçoit aucun e-mail (« MX nul »).`],
      fixes: [
        "Les avis de non-remise et les réponses à l’adresse d’envoi se perdent, et certains destinataires refusent ces e-mails. Demandez de publier les MX de votre fournisseur de messagerie, ou choisissez une adresse d’envoi sur un domaine qui reçoit des e-mails.",
      ],
    };
  return {
    verdict: "bon",
    records,
    findings: [
      `Le domaine ${domain} reçoit des e-mails (${mx.length === 1 ? "1 serveur MX" : `${mx.length} serveurs MX`}) : les avis de non-remise arrivent.`,
    ],
    fixes: [],
  };
}

function checkAlignment(
  domain: string,
  spf: CheckResult,
  providerNamed: boolean | null,
  dkim: CheckResult,
  dmarc: DmarcRecord | null,
): CheckResult {
  if (silent(spf) && silent(dkim)) return notChecked(NO_ANSWER);
  const viaDkim = dkim.verdict === "bon";
  const viaSpf = spf.verdict === "bon" && providerNamed === true;
  const strict = dmarc && (dmarc.adkim === "s" || dmarc.aspf === "s") ? " (alignement strict demandé par DMARC)" : "";
  const known: string[] = [];
  if (viaDkim)
    known.push(
      `Une clé DKIM est publiée sur ${domain}, le domaine de votre adresse d’envoi : une signature faite avec elle est alignée${strict}.`,
    );
  if (viaSpf)
    known.push(
      `Le site remet ses e-mails à votre fournisseur avec ${domain} comme adresse de retour, et le SPF de ${domain} l’autorise : SPF est aligné, sauf si votre fournisseur remplace cette adresse de retour par la sienne.`,
    );
  const unknown =
    "Ce que le DNS ne dit pas : si votre fournisseur signe vraiment avec cette clé (`d=" +
    domain +
    "`) et garde votre adresse de retour. Pour le voir, envoyez-vous un essai ci-dessous puis, dans Gmail, ouvrez-le et choisissez « Afficher l’original » : SPF, DKIM et DMARC doivent dire « PASS ».";
  if (viaDkim || viaSpf) return { verdict: "bon", records: [], findings: [...known, unknown], fixes: [] };
  // Not aligned for sure only when DKIM is surely missing and SPF surely does not cover the provider.
  const spfUnknown = silent(spf) || (spf.verdict === "bon" && providerNamed === null);
  if (spfUnknown || dkim.verdict === "non-verifie")
    return {
      verdict: "non-verifie",
      records: [],
      findings: [
        "Le DNS ne permet pas de dire si vos e-mails sont alignés : " +
          (dkim.verdict === "non-verifie"
            ? "aucune clé DKIM n’a pu être vérifiée"
            : "nous ne savons pas si le SPF autorise votre serveur d’envoi") +
          ".",
        unknown,
      ],
      fixes:
        dkim.verdict === "non-verifie" && !silent(dkim)
          ? ["Indiquez votre sélecteur DKIM ci-dessus pour en savoir plus."]
          : [],
    };
  return {
    verdict: "a-corriger",
    records: [],
    findings: [
      `Ni SPF ni DKIM ne relient vos e-mails à ${domain}, le domaine de votre adresse d’envoi : Gmail et Yahoo peuvent les refuser ou les classer en indésirables.`,
    ],
    fixes: [
      `Le plus sûr : demandez à votre fournisseur d’envoi d’activer la signature DKIM pour ${domain} et publiez l’enregistrement qu’il donne.`,
    ],
  };
}

/** Gmail's and Yahoo's rules for senders (2024), as far as this report and the site's own code tell. */
function checklistOf(report: Pick<SenderReport, "spf" | "dkim" | "dmarc" | "alignment">): ChecklistItem[] {
  const state = (results: CheckResult[]) =>
    results.some((result) => result.verdict === "bon")
      ? true
      : results.every((result) => result.verdict === "non-verifie")
        ? null
        : false;
  const said = (kept: boolean | null, yes: string, no: string) =>
    kept === null ? "Pas vérifié : voir plus haut." : kept ? yes : no;
  const auth = state([report.spf, report.dkim]);
  const dmarc = state([report.dmarc]);
  const aligned = state([report.alignment]);
  return [
    {
      label: "SPF ou DKIM en ordre",
      kept: auth,
      note: said(auth, "Au moins l’un des deux est en ordre.", "Ni SPF ni DKIM n’est en ordre."),
    },
    {
      label: "Un enregistrement DMARC (`p=none` suffit)",
      kept: dmarc,
      note: said(dmarc, "Publié.", "Manquant ou à corriger."),
    },
    {
      label: "L’adresse d’envoi alignée avec SPF ou DKIM",
      kept: aligned,
      note: said(aligned, "Aligné, autant que le DNS permet de le savoir.", "Pas aligné."),
    },
    {
      label: "Désabonnement en un clic dans chaque lettre d’information",
      kept: true,
      note: "Le site ajoute à chaque lettre les en-têtes « List-Unsubscribe » et « List-Unsubscribe-Post » : la messagerie affiche un bouton « Se désabonner ».",
    },
    {
      label: "Une version en texte simple dans chaque e-mail",
      kept: true,
      note: "Le site écrit chaque e-mail aussi en texte simple, et lui donne un identifiant (Message-ID) sur votre domaine.",
    },
    {
      label: "Peu de plaintes pour indésirable (moins de 0,3 %)",
      kept: null,
      note: "Le site n’inscrit à la lettre que les personnes qui ont confirmé leur adresse. Le taux de plaintes se lit chez votre fournisseur d’envoi.",
    },
  ];
}

export interface CheckSenderOptions {
  /** MAIL_FROM, with or without a display name. */
  from: string;
  /** SMTP_URL, to name the sending provider; absent: not configured. */
  smtpUrl?: string;
  /** The DKIM selector the owner gave (checked with `isSelector`), or null: common ones are tried. */
  selector: string | null;
  lookups: DnsLookups;
  /** The longest wait for one answer (default `DNS_TIMEOUT_MS`). */
  timeoutMs?: number;
}

/** Checks MAIL_FROM's domain (see the module's header). Never throws. */
export async function checkSender({
  from,
  smtpUrl,
  selector,
  lookups,
  timeoutMs = DNS_TIMEOUT_MS,
}: CheckSenderOptions): Promise<SenderReport> {
  const domain = mailFromDomain(from);
  const host = smtpHost(smtpUrl);
  const provider = host
    ? { host, name: PROVIDERS.find((one) => one.hosts.some((suffix) => within(host, suffix)))?.name ?? null }
    : null;
  if (isReservedDomain(domain)) {
    const reserved = notChecked(`${domain} est un nom réservé aux essais : il n’existe pas dans le DNS public.`);
    const checks = { spf: reserved, dkim: reserved, dmarc: reserved, mx: reserved, alignment: reserved };
    return { domain, reserved: true, offline: false, selector, provider, ...checks, checklist: checklistOf(checks) };
  }
  const [txt, mx, dkim, dmarc] = await Promise.all([
    ask(() => lookups.resolveTxt(domain), timeoutMs),
    ask(() => lookups.resolveMx(domain), timeoutMs),
    checkDkim(lookups, domain, selector, timeoutMs),
    checkDmarc(lookups, domain, timeoutMs),
  ]);
  const spf = await checkSpf(lookups, domain, txt, host, timeoutMs);
  const checks = {
    spf: spf.result,
    dkim,
    dmarc: dmarc.result,
    mx: checkMx(domain, mx),
    alignment: checkAlignment(domain, spf.result, spf.namesProvider, dkim, dmarc.record),
  };
  const offline = [checks.spf, checks.dkim, checks.dmarc, checks.mx].every(silent);
  return { domain, reserved: false, offline, selector, provider, ...checks, checklist: checklistOf(checks) };
}
