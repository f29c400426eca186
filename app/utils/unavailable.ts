/**
 * The words of the site while its database does not answer (issue 33,
 * item 10), for the 503 page (`UnavailableNotice`) and the forms'
 * messages; how long a client is asked to wait. The answers themselves:
 * app/utils/database-down.server.ts.
 */

/** Seconds a client is asked to wait before trying again (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 120;

/** What a visitor reads while the database is down (a page, a form's message). */
export const unavailableWords = {
  title: "Service momentanément indisponible",
  text: "Cette page ne peut pas s’afficher pour l’instant : le site est momentanément indisponible. Veuillez réessayer dans quelques minutes, ou appelez-moi.",
  /** A form's message: what was typed is kept. */
  form: "Le service est momentanément indisponible : rien n’a été enregistré, mais vos saisies sont gardées. Veuillez réessayer dans quelques minutes, ou appelez-moi.",
} as const;
