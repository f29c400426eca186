/**
 * The sender check (issue 32 item 2, "Must show") against an injected
 * resolver: a domain with SPF, DKIM and DMARC in order, one without DMARC,
 * no network (refused, and a resolver that never answers): the right
 * verdict each time; and the rules it reads (too many SPF lookups, a
 * provider not named, a withdrawn key, a parent's DMARC, a null MX, a
 * reserved name looked up nowhere).
 */
import dgram from "node:dgram";
import { describe, expect, it } from "vitest";
import { dkimKeyRecord, type DnsZone as Zone } from "../../tests/support/dns";
import { isDkim, isDmarc, isSpf, parseDkim, parseDmarc, parseSpf } from "./dns-records";
import { mailFromDomain } from "./provider-events.server";
import { dnsResolver, isReservedDomain, type DnsLookups } from "./dns-lookups.server";
import { checkSender, isSelector } from "./sender-check.server";

/** A resolver answering from `zone` (ENOTFOUND for a name it lacks, ENODATA for a type), counting its lookups. */
function fakeResolver(zone: Zone): DnsLookups & { asked: string[] } {
  const asked: string[] = [];
  const answer = <T>(name: string, pick: (entry: Zone[string]) => T[] | undefined): Promise<T[]> => {
    asked.push(name);
    const entry = zone[name];
    if (!entry) return Promise.reject(Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" }));
    const records = pick(entry);
    if (!records?.length) return Promise.reject(Object.assign(new Error(`ENODATA ${name}`), { code: "ENODATA" }));
    return Promise.resolve(records);
  };
  return {
    asked,
    resolveTxt: (name) => answer(name, (entry) => entry.txt),
    resolveMx: (name) => answer(name, (entry) => entry.mx),
  };
}

const KEY_2048 = dkimKeyRecord(2048);

/** exemple.ch with everything in order, sending through Infomaniak. */
const GOOD: Zone = {
  "exemple.ch": {
    txt: [["v=spf1 include:spf.infomaniak.ch -all"], ["google-site-verification=abc"]],
    mx: [
      { priority: 10, exchange: "mta-gw.infomaniak.ch" },
      { priority: 20, exchange: "mx2.infomaniak.ch" },
    ],
  },
  "spf.infomaniak.ch": { txt: [["v=spf1 ip4:185.125.25.0/24 ip6:2001:1600::/32 -all"]] },
  "mail._domainkey.exemple.ch": { txt: [KEY_2048] },
  "_dmarc.exemple.ch": { txt: [["v=DMARC1; p=quarantine; rua=mailto:dmarc@exemple.ch"]] },
};

const SENDING = {
  from: "Jean-Marc Favre <site@exemple.ch>",
  smtpUrl: "smtp://site%40exemple.ch:x@mail.infomaniak.com:587",
};

const refused = (name: string) =>
  Promise.reject(Object.assign(new Error(`queryTxt ECONNREFUSED ${name}`), { code: "ECONNREFUSED" }));

describe("checkSender", () => {
  it("says « bon » everywhere for a domain with SPF naming the provider, a DKIM key, DMARC and MX", async () => {
    const report = await checkSender({ ...SENDING, selector: "mail", lookups: fakeResolver(GOOD) });
    expect(report.domain).toBe("exemple.ch");
    expect(report.offline).toBe(false);
    expect(report.provider).toEqual({ host: "mail.infomaniak.com", name: "Infomaniak" });
    for (const check of [report.spf, report.dkim, report.dmarc, report.mx, report.alignment]) {
      expect(check.verdict).toBe("bon");
      expect(check.fixes).toEqual([]);
    }
    expect(report.spf.records).toEqual(["v=spf1 include:spf.infomaniak.ch -all"]);
    expect(report.spf.findings.join(" ")).toContain("`-all`");
    expect(report.spf.findings.join(" ")).toContain("1 consultation DNS sur les 10 permises");
    expect(report.spf.findings.join(" ")).toContain("Il nomme votre serveur d’envoi (mail.infomaniak.com)");
    expect(report.dkim.findings.join(" ")).toContain("2048 bits");
    expect(report.dmarc.findings.join(" ")).toContain("p=quarantine");
    expect(report.mx.records).toEqual(["10 mta-gw.infomaniak.ch", "20 mx2.infomaniak.ch"]);
    expect(report.checklist.map((item) => item.kept)).toEqual([true, true, true, true, true, null]);
  });

  it("says DMARC « introuvable » for a domain without it, with the record to add, and the checklist says so", async () => {
    const zone = { ...GOOD };
    delete zone["_dmarc.exemple.ch"];
    const report = await checkSender({ ...SENDING, selector: "mail", lookups: fakeResolver(zone) });
    expect(report.dmarc.verdict).toBe("introuvable");
    expect(report.dmarc.fixes.join(" ")).toContain("`_dmarc.exemple.ch` qui contient `v=DMARC1; p=none`");
    expect(report.spf.verdict).toBe("bon");
    expect(report.dkim.verdict).toBe("bon");
    expect(report.offline).toBe(false);
    expect(report.checklist[1]).toMatchObject({ kept: false, note: "Manquant ou à corriger." });
  });

  it("says nothing is checked, never « introuvable », when the DNS refuses every lookup (no network)", async () => {
    const lookups: DnsLookups = { resolveTxt: refused, resolveMx: refused };
    const report = await checkSender({ ...SENDING, selector: "mail", lookups });
    expect(report.offline).toBe(true);
    for (const check of [report.spf, report.dkim, report.dmarc, report.mx, report.alignment]) {
      expect(check.verdict).toBe("non-verifie");
      expect(check.findings[0]).toContain("n’a pas répondu à temps");
    }
    expect(report.checklist.slice(0, 3).map((item) => item.kept)).toEqual([null, null, null]);
  });

  it("gives up a lookup that never answers after its timeout: offline, not hanging", async () => {
    const never = () => new Promise<never>(() => {});
    const report = await checkSender({
      ...SENDING,
      selector: null,
      lookups: { resolveTxt: never, resolveMx: never },
      timeoutMs: 30,
    });
    expect(report.offline).toBe(true);
    expect(report.dkim.verdict).toBe("non-verifie");
  });

  it("gives up on a DNS server that never answers, through Node's resolver and its timeout", async () => {
    const silentServer = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => silentServer.bind(0, "127.0.0.1", resolve));
    try {
      const lookups = dnsResolver([`127.0.0.1:${silentServer.address().port}`], 100);
      const report = await checkSender({ ...SENDING, selector: "mail", lookups, timeoutMs: 100 });
      expect(report.offline).toBe(true);
      expect(report.spf.verdict).toBe("non-verifie");
    } finally {
      silentServer.close();
    }
  });

  it("looks nothing up for a reserved name (the default MAIL_FROM, site@localhost)", async () => {
    const lookups: DnsLookups = {
      resolveTxt: () => Promise.reject(new Error("must not be asked")),
      resolveMx: () => Promise.reject(new Error("must not be asked")),
    };
    const report = await checkSender({ from: "site@localhost", selector: null, lookups });
    expect(report).toMatchObject({ domain: "localhost", reserved: true, offline: false, provider: null });
    expect(report.spf.findings[0]).toContain("nom réservé aux essais");
  });

  it("asks to fix an SPF record that does not name the provider, or ends in +all, or costs more than 10 lookups", async () => {
    const zone: Zone = {
      ...GOOD,
      "exemple.ch": { ...GOOD["exemple.ch"], txt: [["v=spf1 include:_spf.google.com +all"]] },
      "_spf.google.com": { txt: [["v=spf1 include:a.google.com include:b.google.com ~all"]] },
      "a.google.com": { txt: [["v=spf1 a mx a:x.ch mx:y.ch exists:z.ch ~all"]] },
      "b.google.com": { txt: [["v=spf1 ptr a mx include:c.google.com ~all"]] },
      "c.google.com": { txt: [["v=spf1 ip4:192.0.2.1 -all"]] },
    };
    const report = await checkSender({ ...SENDING, selector: "mail", lookups: fakeResolver(zone) });
    expect(report.spf.verdict).toBe("a-corriger");
    const fixes = report.spf.fixes.join(" ");
    expect(fixes).toContain("remplacer `+all` par `~all`");
    expect(fixes).toContain("`include:spf.infomaniak.ch`");
    expect(fixes).toContain("sous 10 consultations");
    expect(report.spf.findings.join(" ")).toContain("Il demande 12 consultations DNS");
    // DKIM still aligns the From.
    expect(report.alignment.verdict).toBe("bon");
  });

  it("says a withdrawn DKIM key is to fix, and a missing one « introuvable » at the selector given", async () => {
    const withdrawn = await checkSender({
      ...SENDING,
      selector: "mail",
      lookups: fakeResolver({ ...GOOD, "mail._domainkey.exemple.ch": { txt: [["v=DKIM1; k=rsa; p="]] } }),
    });
    expect(withdrawn.dkim.verdict).toBe("a-corriger");
    expect(withdrawn.dkim.findings[0]).toContain("elle a été retirée");
    const missing = await checkSender({ ...SENDING, selector: "s2024", lookups: fakeResolver(GOOD) });
    expect(missing.dkim.verdict).toBe("introuvable");
    expect(missing.dkim.findings[0]).toContain("s2024._domainkey.exemple.ch");
  });

  it("finds a key under a common selector when none is given", async () => {
    const zone: Zone = { ...GOOD, "google._domainkey.exemple.ch": GOOD["mail._domainkey.exemple.ch"]! };
    delete zone["mail._domainkey.exemple.ch"];
    const report = await checkSender({ ...SENDING, selector: null, lookups: fakeResolver(zone) });
    expect(report.dkim.verdict).toBe("bon");
    expect(report.dkim.findings[0]).toContain("sous le sélecteur courant « google »");
  });

  it("says From is not aligned when neither a DKIM key nor an SPF naming the provider is published", async () => {
    const zone: Zone = { ...GOOD, "exemple.ch": { mx: GOOD["exemple.ch"]!.mx } };
    delete zone["mail._domainkey.exemple.ch"];
    const report = await checkSender({ ...SENDING, selector: "mail", lookups: fakeResolver(zone) });
    expect(report.spf.verdict).toBe("introuvable");
    expect(report.spf.fixes[0]).toContain("`v=spf1 include:spf.infomaniak.ch ~all`");
    expect(report.alignment.verdict).toBe("a-corriger");
    expect(report.checklist[0]!.kept).toBe(false);
  });

  it("follows the parent domain's DMARC for a subdomain sender, and says a null MX is to fix", async () => {
    const lookups = fakeResolver({
      "envoi.exemple.ch": { txt: [["v=spf1 include:spf.infomaniak.ch -all"]], mx: [{ priority: 0, exchange: "" }] },
      "spf.infomaniak.ch": GOOD["spf.infomaniak.ch"]!,
      "_dmarc.exemple.ch": { txt: [["v=DMARC1; p=reject; sp=none"]] },
    });
    const report = await checkSender({ ...SENDING, from: "site@envoi.exemple.ch", selector: "mail", lookups });
    expect(report.dmarc.verdict).toBe("bon");
    expect(report.dmarc.findings.join(" ")).toContain("suit l’enregistrement DMARC de exemple.ch");
    expect(report.dmarc.findings.join(" ")).toContain("p=none");
    expect(report.mx.verdict).toBe("a-corriger");
    expect(lookups.asked).toContain("_dmarc.envoi.exemple.ch");
  });
});

describe("the records read", () => {
  it("reads SPF's ending, includes and lookups", () => {
    expect(isSpf("v=spf1 -all")).toBe(true);
    expect(isSpf("v=spf10")).toBe(false);
    expect(parseSpf("v=spf1 a mx include:spf.infomaniak.ch ip4:192.0.2.0/24 ~all")).toMatchObject({
      includes: ["spf.infomaniak.ch"],
      all: "~",
      lookups: 3,
      redirect: false,
    });
    expect(parseSpf("v=spf1 redirect=_spf.exemple.ch")).toMatchObject({ redirect: true, all: null, lookups: 1 });
  });

  it("reads DMARC's policy and alignment modes", () => {
    expect(isDmarc("v=DMARC1; p=none")).toBe(true);
    expect(isDmarc("p=none; v=DMARC1")).toBe(false);
    expect(parseDmarc("v=DMARC1;p=Reject; adkim=s; pct=50")).toMatchObject({
      policy: "reject",
      adkim: "s",
      aspf: "r",
      pct: 50,
      reports: false,
    });
    expect(parseDmarc("v=DMARC1; p=maybe").policy).toBeNull();
  });

  it("reads a DKIM key's size, and tells a withdrawn or broken key", () => {
    expect(isDkim("v=DKIM1; k=rsa; p=")).toBe(true);
    expect(parseDkim(KEY_2048.join(""))).toMatchObject({ type: "rsa", present: true, readable: true, bits: 2048 });
    expect(parseDkim("v=DKIM1; p=").present).toBe(false);
    expect(parseDkim("v=DKIM1; p=QUJD").readable).toBe(false);
  });

  it("knows reserved names, selectors and MAIL_FROM's domain", () => {
    expect(["localhost", "site.test", "example.com", "mail.example.org", "box.local"].map(isReservedDomain)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(isReservedDomain("exemple.ch")).toBe(false);
    expect(["mail", "s1.2024", "selector_1"].map(isSelector)).toEqual([true, true, true]);
    expect(["", "a b", "-x", "a..b", "<script>"].map(isSelector)).toEqual([false, false, false, false, false]);
    expect(mailFromDomain("Jean-Marc Favre <Site@Exemple.CH>")).toBe("exemple.ch");
    expect(mailFromDomain("site@exemple.ch")).toBe("exemple.ch");
  });
});
