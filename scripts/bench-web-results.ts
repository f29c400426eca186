/**
 * The figures of `npm run bench:web`'s Lighthouse runs: each run's scores,
 * LCP and bytes by kind, the median of a figure, and the failing audits in
 * words for the report.
 */
import { type Result } from "lighthouse";

export const FORM_FACTORS = ["mobile", "desktop"] as const;
export type FormFactor = (typeof FORM_FACTORS)[number];
export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];
export const KINDS = ["JS", "CSS", "HTML", "images", "fonts", "other"] as const;
export type Kind = (typeof KINDS)[number];

/** Lighthouse's `resourceType` (Chrome DevTools' type names) to the report's kinds. */
export const KIND_OF: Record<string, Kind> = {
  Script: "JS",
  Stylesheet: "CSS",
  Document: "HTML",
  Image: "images",
  Font: "fonts",
};

/** An audit that counts in a category's score and scores under 1 (0–1). */
export interface FailingAudit {
  category: Category;
  id: string;
  title: string;
  score: number;
  /** Lighthouse's display value, e.g. "2.9 s". */
  value?: string;
  /** In how many runs it failed. */
  runs: number;
}

export interface Sample {
  scores: Record<Category, number>;
  lcp: number;
  cls: number;
  tbt: number;
  bytes: Record<Kind | "total", number>;
  requests: number;
  /** Weighted audits scoring under 1. */
  failing: FailingAudit[];
  /** Lighthouse's measure of this machine's CPU speed (higher is faster; it varies with the load). */
  benchmarkIndex: number;
  /** Mobile LCP's phases ("TTFB 630 ms, render delay 100 ms") and the audits that estimate LCP or FCP savings. */
  lcpNotes: string[];
  lighthouse: string;
}

/** The figures of one Lighthouse result. @throws when Lighthouse reports a runtime error or a category failed. */
export function summarize(lhr: Result, url: string, formFactor: FormFactor): Sample {
  const where = `${url} (${formFactor})`;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${where}: ${lhr.runtimeError.message}`);
  for (const warning of lhr.runWarnings) console.error(`  warning (${where}): ${warning}`);

  const scores = {} as Record<Category, number>;
  const failing: FailingAudit[] = [];
  for (const id of CATEGORIES) {
    const category = lhr.categories[id];
    if (!category || category.score === null) throw new Error(`Lighthouse gave no ${id} score for ${where}.`);
    scores[id] = Math.round(category.score * 100);
    for (const ref of category.auditRefs) {
      const result = lhr.audits[ref.id];
      if (ref.weight > 0 && result && result.score !== null && result.score < 1)
        failing.push({
          category: id,
          id: ref.id,
          title: result.title,
          score: result.score,
          value: result.displayValue,
          runs: 1,
        });
    }
  }

  const metric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`Lighthouse gave no ${id} for ${where}.`);
    return value;
  };

  const details = lhr.audits["network-requests"]?.details;
  if (!details || details.type !== "table") throw new Error(`Lighthouse listed no network requests for ${where}.`);
  const bytes = { JS: 0, CSS: 0, HTML: 0, images: 0, fonts: 0, other: 0, total: 0 };
  let requests = 0;
  for (const item of details.items) {
    const size = typeof item.transferSize === "number" ? item.transferSize : 0;
    const kind = KIND_OF[String(item.resourceType)] ?? "other";
    bytes[kind] += size;
    bytes.total += size;
    if (/^https?:/.test(String(item.url))) requests += 1;
  }

  return {
    scores,
    lcp: metric("largest-contentful-paint"),
    cls: metric("cumulative-layout-shift"),
    tbt: metric("total-blocking-time"),
    bytes,
    requests,
    failing,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    lcpNotes: lcpNotes(lhr),
    lighthouse: lhr.lighthouseVersion,
  };
}

/**
 * Where LCP goes: its phases (from `largest-contentful-paint-element`: TTFB,
 * load delay, load time, render delay, in simulated ms) and every audit with
 * an estimated LCP or FCP saving (ms), e.g. render-blocking requests.
 */
export function lcpNotes(lhr: Result): string[] {
  const notes: string[] = [];
  const element = lhr.audits["largest-contentful-paint-element"]?.details;
  if (element?.type === "list") {
    for (const table of element.items) {
      if (table.type !== "table") continue;
      const node = table.items[0]?.node;
      if (node && typeof node === "object" && "selector" in node) notes.push(`LCP element: \`${node.selector}\``);
      const phases = table.items
        .filter((item) => typeof item.phase === "string" && typeof item.timing === "number")
        .map((item) => `${String(item.phase)} ${Math.round(Number(item.timing))} ms`);
      if (phases.length) notes.push(`LCP phases: ${phases.join(", ")}`);
    }
  }
  for (const [id, result] of Object.entries(lhr.audits)) {
    // Its "saving" is only the distance to the 2.5 s threshold, not a fix.
    if (id === "largest-contentful-paint-element") continue;
    const savings = (["LCP", "FCP"] as const)
      .filter((metric) => (result.metricSavings?.[metric] ?? 0) > 0)
      .map((metric) => `${metric} −${Math.round(result.metricSavings![metric]!)} ms`);
    if (savings.length) notes.push(`${result.title} (\`${id}\`): ${savings.join(", ")}`);
  }
  return notes;
}

/** The median of `values` (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * "  - performance: Speed Index (`speed-index`, score 0.95, 2.9 s)", or "in 2 of 3 runs, median score 0.9"
 * when the benchmark made `runs` runs.
 */
export function describeFailing(audit: FailingAudit, runs: number): string {
  const detail =
    runs === 1
      ? `score ${audit.score}${audit.value ? `, ${audit.value}` : ""}`
      : `in ${audit.runs} of ${runs} runs, median score ${audit.score}`;
  return `  - ${audit.category}: ${audit.title} (\`${audit.id}\`, ${detail})`;
}

/** Bytes as kilobytes with one decimal ("156.0"). */
export const kb = (bytes: number) => (bytes / 1024).toFixed(1);
