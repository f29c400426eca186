/**
 * The shape of one processing activity of the register (« registre des
 * activités de traitement », LPD art. 12 al. 2): what a feature states about
 * the data its tables hold. Every entry of the person registry names its
 * processing (`PersonTable.processing`, required: a table cannot join the
 * registry without one), and the registry gathers them (`registry.processings`)
 * for the desk's page « Protection des données » and the privacy notice's
 * summary. The words are the owner's, in French; the providers and periods
 * come from Réglages when the register is shown.
 *
 * Also here: the mechanisms' own processings (`MAIL_PROCESSING`, the mails;
 * `SERVER_LOG_PROCESSING`, the server's log and the counters against abuse)
 * and the safeguards every processing shares (`COMMON_SAFEGUARDS`).
 */

/** A provider of Réglages that receives data on the owner's behalf (the legal settings' providers). */
export type RecipientKey = "hosting" | "mailProvider";

/** The periods of Réglages a retention is written with (the owner's legal settings). */
export interface RegisterPeriods {
  retentionMonths: number;
  sentNotificationDays: number;
  logRetentionDays: number;
}

/** One processing activity, as the register and the privacy notice state it. */
export interface Processing {
  /** A stable key ("contact-requests"): the CSV's first column. */
  key: string;
  /** Its name ("Demandes de contact et de rappel"). */
  title: string;
  /** Why the data is processed, in one sentence without a final full stop. */
  purpose: string;
  /** The categories of data. */
  data: readonly string[];
  /** The categories of people the data is about. */
  people: readonly string[];
  /** How long the data is kept, with the periods of Réglages, in one sentence without a final full stop. */
  retention(periods: RegisterPeriods): string;
  /** Who receives the data on the owner's behalf (resolved to names and countries from Réglages). */
  recipients: readonly RecipientKey[];
  /** Its own security measures (LPD art. 8), beside `COMMON_SAFEGUARDS`. */
  safeguards: readonly string[];
  /**
   * Tables outside the person registry where it keeps what it records (the
   * breach log's `data_breaches`, the counters' `rate_limits`); the registry's
   * own tables are found from their entries.
   */
  alsoStoredIn?: readonly string[];
}

/** The security measures every processing of the site shares (LPD art. 8, OPDo art. 1 to 3). */
export const COMMON_SAFEGUARDS: readonly string[] = [
  "connexions chiffrées (HTTPS)",
  "bureau réservé à l’exploitant, protégé par un mot de passe et un code à usage unique (double authentification)",
  "journal d’audit des connexions, exports, effacements et modifications, sans donnée personnelle",
  "effacement automatique à la fin de la durée de conservation",
];

/** The mails the site writes (the outbox, app/mail/): every other processing's messages travel through it. */
export const MAIL_PROCESSING: Processing = {
  key: "mails",
  title: "E-mails envoyés par le site",
  purpose:
    "Envoyer les messages que les autres traitements annoncent : confirmations, rappels, lettres, factures, et mes avis de nouvelles demandes",
  data: [
    "adresse e-mail et nom du destinataire",
    "objet et texte du message, et les personnes qu’il nomme",
    "état de l’envoi (envoyé, en attente, refusé) et sa raison",
    "nombre d’e-mails écrits à une adresse dans la journée, sous forme d’empreinte (hachage)",
  ],
  people: ["toute personne à qui le site écrit", "personnes nommées dans un message"],
  retention: ({ sentNotificationDays }) =>
    `Effacés ${sentNotificationDays} jours après l’envoi ; un e-mail en attente ou refusé reste tant que la demande, l’inscription ou la facture qu’il concerne est gardée ; le compte du jour est effacé après deux jours`,
  recipients: ["hosting", "mailProvider"],
  safeguards: ["nombre d’e-mails par adresse et par jour plafonné", "aucun suivi d’ouverture ni de clic"],
};

/** The server's log and the counters that hold back abuse (rate limits, the day's keys: decision 028). */
export const SERVER_LOG_PROCESSING: Processing = {
  key: "server-log",
  title: "Journal du serveur et protection contre les abus",
  purpose:
    "Repérer les pannes, et empêcher les envois abusifs des formulaires et qu’une seule connexion prenne toutes les places d’un cours",
  data: [
    "heure, type et adresse de chaque page demandée, code et durée de la réponse (sans adresse IP)",
    "nombre d’envois et de places réservées par connexion, sous forme d’empreinte (hachage) de l’adresse IP",
  ],
  people: ["visiteurs du site"],
  retention: ({ logRetentionDays }) =>
    `Journal effacé après ${logRetentionDays} jours ; comptes d’envois effacés au plus un jour après la fin de leur délai ; la clé du jour est effacée après deux jours, l’empreinte ne permet alors plus de retrouver personne`,
  recipients: ["hosting"],
  safeguards: ["aucune adresse IP enregistrée : une empreinte faite avec une clé tirée au hasard chaque jour"],
  alsoStoredIn: ["rate_limits", "daily_salts"],
};
