/**
 * The legal notice `/mentions-legales` (LCD art. 3 al. 1 let. s) and the
 * privacy notice `/confidentialite` (LPD art. 19). `legalSettings` are the
 * defaults the site ships with (placeholders); the owner puts the real
 * providers, periods and date of the last update in Réglages
 * (`/admin/reglages`), and the operator's name comes from his identity there.
 * The privacy notice's words are in `privacy-notice.ts`. Keep the texts
 * true to what the site does.
 */
import { typesetAll } from "~/utils/typography";
import type { LegalPage, RichText } from "./legal-page";
import { privacyNoticeOf, type PrivacyNoticeFacts } from "./privacy-notice";

export type { Inline, LegalBlock, LegalPage, LegalSection, Provider, RichText } from "./legal-page";

/** The defaults of the owner's legal settings (Réglages changes them): every text below follows. */
export const legalSettings = /* @__PURE__ */ typesetAll({
  /** Date of the last change to either page (ISO), shown as "Dernière mise à jour : 22 novembre 2026". */
  lastUpdated: "2026-11-25",
  /** A contact request is deleted this many months after the last exchange with the person (automatically: app/desk/retention.server.ts). */
  retentionMonths: 24,
  /** A sent notification (the owner's copy of a request, in the database) is deleted this many days after sending. */
  sentNotificationDays: 30,
  /** The server's request log is deleted after this many days (set the same rotation at the host). */
  logRetentionDays: 30,
  /** Hosts the site and the database of contact requests. */
  hosting: {
    name: "Hébergeur (exemple) SA",
    address: "Rue de l’Exemple 2, 0000 Localité (exemple), Suisse",
    website: "https://hebergeur.example.com",
    country: "Suisse",
  },
  /** Carries the e-mail that notifies the owner of each new request (SMTP_URL), and holds the owner's mailbox. */
  mailProvider: {
    name: "Fournisseur e-mail (exemple) SA",
    address: "Rue de l’Exemple 3, 0000 Localité (exemple), Suisse",
    website: "https://e-mail.example.com",
    country: "Suisse",
  },
  /** Minutes the server counts contact-form posts per IP address (CONTACT_RATE_LIMIT_WINDOW_MINUTES, default 10). */
  rateLimitMinutes: 10,
});

/** Labels of the operator's card and the page's footer line. */
export const legalLabels = /* @__PURE__ */ typesetAll({
  uid: "Numéro IDE",
  /** Before a provider's country, e.g. "Données traitées en : Suisse". */
  country: "Données traitées en",
  email: "E-mail",
  emailMask: "•••••@•••••",
  emailHidden: "masquée",
  /** The hint above the button, while it reads "Révéler" and once it reads "Masquer". */
  revealHints: {
    reveal:
      "Pour la protéger des robots qui envoient des messages indésirables, mon adresse e-mail est masquée : cliquez sur « Révéler » pour l’afficher.",
    hide: "Mon adresse e-mail est affichée. Cliquez sur « Masquer » pour la cacher de nouveau.",
  },
  lastUpdated: "Dernière mise à jour :",
});

/**
 * The words of `/mentions-legales` and `/confidentialite` for the owner's
 * `name` and legal `settings` (Réglages, `/admin/reglages`; the defaults are
 * `legalSettings`); `processings`: the register's summary the privacy notice
 * lists (`PrivacyNoticeFacts.processings`). Never throws.
 */
export function legalPagesOf(
  name: string,
  settings: Omit<typeof legalSettings, "rateLimitMinutes">,
  processings: PrivacyNoticeFacts["processings"] = [],
): { legalNotice: LegalPage; privacyNotice: LegalPage } {
  const { hosting, mailProvider, retentionMonths, sentNotificationDays, logRetentionDays } = typesetAll(settings);
  const { rateLimitMinutes } = legalSettings;

  const providers = [hosting, mailProvider];
  const abroad = providers.filter((provider) => provider.country !== "Suisse");

  /** Where the data is kept: Switzerland only, or the countries abroad and the safeguard (LPD art. 16 and 19 al. 4). */
  const whereText: RichText =
    abroad.length === 0
      ? "Ces prestataires conservent et traitent vos données en Suisse."
      : `Certaines données sont traitées hors de Suisse : ${abroad
          .map((provider) => `${provider.name} (${provider.country})`)
          .join(
            ", ",
          )}. Je ne choisis que des pays dont la législation protège les données de manière adéquate selon le Conseil fédéral, comme les États de l’Union européenne; sinon, le transfert est encadré par des clauses contractuelles types, comme le demande la loi (art. 16 LPD).`;

  /** `/mentions-legales`. */
  const legalNotice: LegalPage = typesetAll({
    title: "Mentions légales",
    description:
      "Qui édite ce site et comment le joindre, qui l’héberge, et les règles sur ses textes et ses illustrations.",
    intro: "Cette page indique qui est responsable de ce site, comment me joindre et qui l’héberge.",
    sections: [
      {
        id: "editeur",
        title: "Qui édite ce site",
        blocks: [
          {
            kind: "paragraph",
            text: "Ce site présente mes cours d’informatique et mon aide informatique pour les seniors en Suisse romande. Il est édité par :",
          },
          { kind: "operator" },
        ],
      },
      {
        id: "hebergement",
        title: "Hébergement",
        blocks: [
          { kind: "paragraph", text: "Ce site est hébergé par :" },
          { kind: "providers", items: [{ provider: hosting }] },
        ],
      },
      {
        id: "contenu-du-site",
        title: "Contenu du site",
        blocks: [
          {
            kind: "paragraph",
            text: "Je rédige les textes de ce site avec soin et je les tiens à jour. Les conseils donnés ici, dans le blog notamment, restent généraux : ils ne remplacent pas un conseil adapté à votre situation. Je ne peux donc pas garantir qu’ils conviennent à chaque cas.",
          },
          {
            kind: "paragraph",
            text: "Vous avez remarqué une erreur? Écrivez-moi : je la corrigerai volontiers.",
          },
        ],
      },
      {
        id: "liens",
        title: "Liens vers d’autres sites",
        blocks: [
          {
            kind: "paragraph",
            text: "Ce site contient quelques liens vers d’autres sites, par exemple YouTube ou WhatsApp. Je les choisis avec soin, mais je ne contrôle pas leur contenu, qui peut changer : chaque site est sous la responsabilité de son éditeur. Si un lien vous semble poser problème, signalez-le-moi et je le retirerai.",
          },
        ],
      },
      {
        id: "droits-auteur",
        title: "Droits d’auteur",
        blocks: [
          {
            kind: "paragraph",
            text: `Les textes, les illustrations et la mise en page de ce site sont protégés par le droit d’auteur (loi fédérale sur le droit d’auteur, LDA). Sauf mention contraire, ils appartiennent à ${name}.`,
          },
          {
            kind: "paragraph",
            text: "Vous pouvez les lire, les imprimer et les partager pour votre usage personnel, et en citer un court passage en indiquant la source. Pour toute autre utilisation, demandez-moi d’abord mon accord.",
          },
          {
            kind: "paragraph",
            text: "Les icônes proviennent de la collection libre Lucide (licence ISC). La police de caractères Atkinson Hyperlegible Next, conçue par le Braille Institute pour être facile à lire, est utilisée sous licence SIL Open Font License.",
          },
        ],
      },
      {
        id: "donnees",
        title: "Protection des données",
        blocks: [
          {
            kind: "paragraph",
            text: [
              "Ce site ne dépose aucun cookie. La façon dont je traite vos données personnelles est expliquée dans la ",
              { text: "politique de confidentialité", href: "/confidentialite" },
              ".",
            ],
          },
        ],
      },
      {
        id: "droit-applicable",
        title: "Droit applicable",
        blocks: [{ kind: "paragraph", text: "Ce site et les présentes mentions sont soumis au droit suisse." }],
      },
    ],
  });

  const privacyNotice = privacyNoticeOf({
    hosting,
    mailProvider,
    retentionMonths,
    sentNotificationDays,
    logRetentionDays,
    rateLimitMinutes,
    whereText,
    processings,
  });

  return { legalNotice, privacyNotice };
}
