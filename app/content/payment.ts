/**
 * How courses are paid, in the words every page and mail uses the same way
 * (the booking and confirmation pages, the confirmation and reminder mails,
 * `/questions` and the promise of `/confiance`; issue 33, item 3,
 * docs/decisions/035-how-courses-are-paid.md). Plain strings: the objects
 * that hold them typeset them.
 */

/** The price of a course, paid on the day. */
export const PAID_ON_SITE =
  "Le prix se paie sur place, le jour du cours, en espèces ou par TWINT. Aucun paiement à l’avance.";

/** When an invoice may come, and how to recognise it. */
export const INVOICE_RULE =
  "Une facture ne vous vient de moi que si nous en avons convenu ensemble (par exemple pour une association) : toujours depuis la même adresse e-mail, avec le mot de code que je vous ai donné, et jamais à payer dans l’urgence.";
