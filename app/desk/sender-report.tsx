/**
 * The pieces of the desk's « Envoi des e-mails » page (app/routes/admin/sender.tsx):
 * one check of the sender's domain (`SenderCheck`: its title, its verdict in
 * words and colour, what was found, the records as published, and what to
 * ask of whoever manages the domain) and Gmail's and Yahoo's rules as a
 * list (`SenderChecklist`). Sentences are typeset, their DNS text (between
 * backticks) shown as code, as written. Records wrap anywhere: a DKIM key
 * fits at 320 px.
 */
import { Fragment } from "react";
import type { ChecklistItem } from "~/mail/sender-check.server";
import type { CheckResult, Verdict } from "~/mail/sender-verdicts";
import { cn } from "~/utils/cn";
import { typeset } from "~/utils/typography";

/** Each verdict's words and colours (text, border and background: colour is never alone). */
const VERDICTS: Record<Verdict, { label: string; className: string }> = {
  bon: { label: "Bon", className: "border-green-700 bg-green-50 text-green-900" },
  "a-corriger": { label: "À corriger", className: "border-red-700 bg-red-50 text-red-900" },
  introuvable: { label: "Introuvable", className: "border-amber-700 bg-amber-50 text-amber-900" },
  "non-verifie": { label: "Pas vérifié", className: "border-gray-500 bg-gray-100 text-gray-900" },
};

/** A sentence of the check: French typography outside backticks, the DNS text between them as code, verbatim. */
function Sentence({ text }: { text: string }) {
  return text.split("`").map((part, index) =>
    index % 2 ? (
      <code key={index} className="rounded bg-gray-100 px-1 font-mono text-base [overflow-wrap:anywhere]">
        {part}
      </code>
    ) : (
      <Fragment key={index}>{typeset(part)}</Fragment>
    ),
  );
}

/** One check, as a section titled `title` (its id: `id`). */
export function SenderCheck({ id, title, check }: { id: string; title: string; check: CheckResult }) {
  const verdict = VERDICTS[check.verdict];
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mt-6 rounded-2xl border-2 border-gray-200 bg-white p-4 sm:p-6"
      data-check={id}
      data-verdict={check.verdict}
    >
      <h2 id={`${id}-title`} className="flex flex-wrap items-center gap-3 text-2xl font-bold">
        {title}
        <span className={cn("rounded-full border-2 px-3 py-0.5 text-lg font-semibold", verdict.className)}>
          <span className="sr-only"> : </span>
          {verdict.label}
        </span>
      </h2>
      {check.findings.map((finding) => (
        <p key={finding} className="mt-3 max-w-3xl text-lg">
          <Sentence text={finding} />
        </p>
      ))}
      {check.records.length ? (
        <div className="mt-3">
          <p className="text-lg text-muted">{check.records.length > 1 ? "Publiés :" : "Publié :"}</p>
          {check.records.map((record) => (
            <code
              key={record}
              className="mt-1 block rounded-lg bg-gray-100 p-2 font-mono text-base [overflow-wrap:anywhere]"
            >
              {record}
            </code>
          ))}
        </div>
      ) : null}
      {check.fixes.length ? (
        <div className="mt-4 rounded-xl border-2 border-primary bg-primary-soft p-4">
          <p className="text-lg font-semibold">{typeset("À demander à la personne qui gère votre domaine :")}</p>
          <ul className="mt-2 list-disc space-y-2 pl-6 text-lg [overflow-wrap:anywhere]">
            {check.fixes.map((fix) => (
              <li key={fix}>
                <Sentence text={fix} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

/** Each state of a rule: its mark and its words. */
const KEPT = {
  yes: { mark: "✓", label: "Fait", className: "text-green-900" },
  no: { mark: "✗", label: "À faire", className: "text-red-900" },
  unknown: { mark: "?", label: "À vérifier", className: "text-gray-900" },
};

/** Gmail's and Yahoo's rules, each with its state in words (a mark beside, hidden from screen readers). */
export function SenderChecklist({ items }: { items: readonly ChecklistItem[] }) {
  return (
    <ul className="mt-4 space-y-4">
      {items.map((item) => {
        const state = item.kept === null ? KEPT.unknown : item.kept ? KEPT.yes : KEPT.no;
        return (
          <li key={item.label} className="flex gap-3 text-lg">
            <span aria-hidden="true" className={cn("w-6 shrink-0 text-center text-xl font-bold", state.className)}>
              {state.mark}
            </span>
            <span>
              <strong>
                <Sentence text={item.label} />
              </strong>{" "}
              — <span className={state.className}>{state.label}.</span> <Sentence text={item.note} />
            </span>
          </li>
        );
      })}
    </ul>
  );
}
