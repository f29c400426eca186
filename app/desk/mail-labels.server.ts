/**
 * What the owner calls each kind of mail (`outbox.kind`), in French: the
 * person page's « Type » of a mail. Every feature names its own kinds
 * (`mailLabels` of its plug, app/features.server.ts gathers them);
 * `mailLabelsOf(plugs)` adds the mechanisms' own kinds. A kind without a
 * label is shown as « Autre e-mail » with its kind, never an English name
 * alone (app/features.server.test.ts checks every kind has its label).
 */
import { MAIL_HELD_NOTICE } from "~/mail/recipient-cap.server";
import { SENDER_TEST_MAIL } from "~/mail/sender-test.server";

/** Kinds of mail to their French labels. */
export type MailLabels = Readonly<Record<string, string>>;

/** The labels of the mechanisms' own mails. */
const MECHANISM_LABELS: MailLabels = {
  [MAIL_HELD_NOTICE]: "Avis d’envois retenus (limite du jour)",
  [SENDER_TEST_MAIL]: "Essai d’envoi (Envoi des e-mails)",
};

/**
 * Every label: the mechanisms' and the features'.
 * @throws Error when two features label one kind (a kind belongs to one feature).
 */
export function mailLabelsOf(features: readonly { mailLabels?: MailLabels }[]): MailLabels {
  const labels: Record<string, string> = { ...MECHANISM_LABELS };
  for (const feature of features)
    for (const [kind, label] of Object.entries(feature.mailLabels ?? {})) {
      if (Object.hasOwn(labels, kind)) throw new Error(`mail kind "${kind}" is labelled twice`);
      labels[kind] = label;
    }
  return labels;
}

/** The French label of `kind`; a kind nobody labelled: « Autre e-mail (kind) ». */
export function mailLabel(labels: MailLabels, kind: string): string {
  return labels[kind] ?? `Autre e-mail (${kind})`;
}
