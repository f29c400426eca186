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
import { isDkim, isDmarc, parseDkim, parseDmarc, type DkimKey, type DmarcRecord } from "./dns-records";
import { mailFromDomain } from "./provider-events.server";
import { ask, textsOf, isReservedDomain, DNS_TIMEOUT_MS, type Answer, type DnsLookups } from "./dns-lookups.server";
import { checkSpf, PROVIDERS, smtpHost, within } from "./sender-spf.server";
import { checkResult, notChecked, NO_ANSWER, silent, type CheckResult } from "./sender-verdicts";

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
