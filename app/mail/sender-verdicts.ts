/**
 * The verdicts of the sender check (app/mail/sender-check.server.ts), as
 * the desk's « Envoi des e-mails » page shows them (app/desk/sender-report.tsx).
 */

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

/** A check's result, its fields in order. */
export const checkResult = (
  verdict: Verdict,
  records: string[],
  findings: string[],
  fixes: string[] = [],
): CheckResult => ({
  verdict,
  records,
  findings,
  fixes,
});

/** A check that could not be made: the DNS did not answer. */
export const notChecked = (why: string): CheckResult => checkResult("non-verifie", [], [why]);

export const NO_ANSWER = "Le serveur DNS n’a pas répondu à temps : rien n’a pu être vérifié. Réessayez plus tard.";

/** Whether a check got no answer from the DNS. */
export const silent = (check: CheckResult) => check.findings[0] === NO_ANSWER;
