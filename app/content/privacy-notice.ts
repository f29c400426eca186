/**
 * The words of the privacy notice `/confidentialite` (LPD art. 19), made by
 * `legalPagesOf` (app/content/legal.ts) for the owner's legal settings. Keep
 * the text true to what the site does.
 */
import { typesetAll } from "~/utils/typography";
import type { LegalPage, Provider, RichText } from "./legal-page";

/** What the privacy notice needs of the owner's legal settings, already typeset. */
export interface PrivacyNoticeFacts {
  hosting: Provider;
  mailProvider: Provider;
  retentionMonths: number;
  sentNotificationDays: number;
  logRetentionDays: number;
  rateLimitMinutes: number;
  /** Where the data is kept: Switzerland only, or the countries abroad and the safeguard (LPD art. 16 and 19 al. 4). */
  whereText: RichText;
  /**
   * The register's processings (LPD art. 12, app/privacy/register.server.ts `noticeSummary`): each one's
   * title, purpose and retention, listed in the section « Chaque traitement en bref » so that the notice and
   * the register say the same; none: no such section.
   */
  processings?: readonly { title: string; purpose: string; retention: string }[];
}

/** `text` with its first letter in lower case, to follow a colon ("Conservation : jusqu’au désabonnement"). */
export const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The `/confidentialite` page for `facts`. Never throws. */
export function privacyNoticeOf({
  hosting,
  mailProvider,
  retentionMonths,
  sentNotificationDays,
  logRetentionDays,
  rateLimitMinutes,
  whereText,
  processings = [],
}: PrivacyNoticeFacts): LegalPage {
  return typesetAll({
    title: "Politique de confidentialité",
    description:
      "Quelles données ce site recueille et pourquoi, combien de temps je les garde, qui les reçoit, et comment exercer vos droits.",
    intro:
      "Votre vie privée compte pour moi. Cette page explique simplement quelles données personnelles je recueille par ce site, pourquoi, combien de temps je les garde et quels sont vos droits, selon la loi fédérale sur la protection des données (LPD), en vigueur depuis le 1er septembre 2023.",
    summary: {
      title: "En bref",
      items: [
        "Ce site ne dépose aucun cookie. Il ne contient ni statistiques de visites, ni publicité.",
        "Je recueille seulement ce que vous m’envoyez par le formulaire de contact, pour vous répondre.",
        "Je ne vends et ne prête vos données à personne.",
        "Vous pouvez à tout moment les consulter, les faire corriger ou les faire effacer.",
      ],
    },
    tocTitle: "Sommaire",
    sections: [
      {
        id: "responsable",
        title: "Qui est responsable de vos données",
        blocks: [
          { kind: "paragraph", text: "Le responsable du traitement de vos données personnelles est :" },
          { kind: "operator" },
          {
            kind: "paragraph",
            text: "Pour toute question sur vos données, écrivez-moi par e-mail ou par courrier à cette adresse.",
          },
        ],
      },
      {
        id: "formulaire",
        title: "Ce que vous m’envoyez par le formulaire de contact",
        blocks: [
          { kind: "paragraph", text: "Quand vous envoyez le formulaire « Contactez-moi », j’enregistre :" },
          {
            kind: "list",
            items: [
              "votre prénom et votre nom;",
              "votre adresse e-mail et votre numéro de téléphone;",
              "le service qui vous intéresse (cours en petit groupe, cours individuel ou support individuel);",
              "votre message, si vous en écrivez un;",
              "votre choix de recevoir ou non la lettre d’information;",
              "votre accord d’être recontacté(e), avec la date et l’heure de l’envoi.",
            ],
          },
          {
            kind: "paragraph",
            text: "J’utilise ces données uniquement pour répondre à votre demande, vous recontacter et, si vous le souhaitez, organiser un cours ou une aide. Je ne les utilise pas pour de la publicité.",
          },
          {
            kind: "paragraph",
            text: "Le formulaire n’est pas obligatoire : vous pouvez aussi m’appeler ou m’écrire. Si vous m’écrivez par e-mail ou par WhatsApp, je traite votre message de la même façon. WhatsApp est un service de l’entreprise Meta, qui applique ses propres règles de confidentialité.",
          },
        ],
      },
      {
        id: "inscriptions",
        title: "Quand vous vous inscrivez à un cours",
        blocks: [
          {
            kind: "paragraph",
            text: "Quand vous inscrivez quelqu’un à un cours (vous-même ou un proche), j’enregistre :",
          },
          {
            kind: "list",
            items: [
              "le prénom, le nom et le numéro de téléphone de la personne qui participe, et son adresse e-mail si vous la donnez;",
              "si vous inscrivez un proche : vos propres prénom, nom, téléphone et, si vous la donnez, votre adresse e-mail;",
              "la séance choisie, le nombre de places et votre message, si vous en écrivez un;",
              "comment vous payez (sur place ou sur facture) et, sur facture, l’adresse postale où j’envoie la facture;",
              "la date et l’heure de l’inscription, et son annulation le cas échéant.",
            ],
          },
          {
            kind: "paragraph",
            text: "J’utilise ces données uniquement pour organiser le cours : vous confirmer la place, vous rappeler la date la veille, vous prévenir d’un changement et dresser la liste de présence. Le lien reçu par e-mail vous permet d’annuler vous-même; il n’est valable que jusqu’à une semaine après le cours.",
          },
        ],
      },
      {
        id: "horodatage",
        title: "La date et l’heure de votre accord",
        blocks: [
          {
            kind: "paragraph",
            text: "En envoyant le formulaire, vous acceptez d’être recontacté(e) au sujet de votre demande. Le serveur enregistre alors lui-même la date et l’heure de l’envoi. Ainsi, je peux montrer, si on me le demande, quand vous avez donné votre accord et, le cas échéant, demandé la lettre d’information (pour laquelle vous recevez ensuite un e-mail de confirmation : voir ci-dessous).",
          },
        ],
      },
      {
        id: "lettre-information",
        title: "La lettre d’information",
        blocks: [
          {
            kind: "paragraph",
            text: "Une fois par mois, j’envoie une lettre d’information (conseils pratiques et mises en garde contre les arnaques) aux personnes qui l’ont demandée. Vous pouvez la demander avec le champ « S’abonner » (page d’accueil, blog, fin de chaque article, page « Lettre d’information ») ou avec la case à cocher du formulaire de contact.",
          },
          {
            kind: "paragraph",
            text: "Votre demande seule ne vous abonne pas. J’enregistre votre adresse e-mail, la date et l’heure de la demande, la page d’où elle vient et la version du texte d’accord que vous avez vu, puis je vous envoie un e-mail avec un lien de confirmation, valable 7 jours. Vous n’êtes abonné(e) qu’après avoir suivi ce lien et appuyé sur « Confirmer » ; j’enregistre alors la date et l’heure de la confirmation. C’est ainsi que je peux prouver votre accord (art. 3 al. 1 let. o LCD). Une demande jamais confirmée est effacée automatiquement après 30 jours.",
          },
          {
            kind: "paragraph",
            text: "J’utilise votre adresse uniquement pour vous envoyer la lettre ; les lettres partent depuis le serveur du site, par le même service d’envoi d’e-mails que les autres messages du site. Vous pouvez vous désabonner à tout moment : chaque lettre contient un lien pour le faire en un clic, sans mot de passe, et vous pouvez aussi me l’écrire simplement. Après un désabonnement, je garde la trace de votre adresse, de la date de votre désabonnement et de votre accord passé, pour ne plus vous écrire et pour pouvoir montrer que je respectais votre choix ; vous pouvez me demander de l’effacer aussi. Les lettres déjà envoyées sont publiées sur la page « Lettre d’information », sans aucune adresse.",
          },
        ],
      },
      ...(processings.length
        ? [
            {
              id: "traitements",
              title: "Chaque traitement en bref",
              blocks: [
                {
                  kind: "paragraph" as const,
                  text: "Voici, pour chaque usage de vos données, pourquoi je les traite et combien de temps je les garde. C’est le même texte que celui de mon registre des activités de traitement (art. 12 LPD) :",
                },
                {
                  kind: "list" as const,
                  items: processings.map(
                    (processing) =>
                      `${processing.title} : ${lowerFirst(processing.purpose)}. Conservation : ${lowerFirst(processing.retention)}.`,
                  ),
                },
              ],
            },
          ]
        : []),
      {
        id: "duree",
        title: "Combien de temps je garde vos données",
        blocks: [
          {
            kind: "paragraph",
            text: `Je garde votre demande et nos échanges pendant ${retentionMonths} mois après notre dernier échange, puis je les efface. Pour la demande enregistrée sur le site, c’est automatique : chaque jour, le site efface les demandes dont le dernier échange date de plus de ${retentionMonths} mois, avec l’historique de leur suivi.`,
          },
          {
            kind: "paragraph",
            text: `L’avis de chaque nouvelle demande, que le site m’envoie par e-mail, reste dans sa base de données le temps de l’envoi. Le site l’efface automatiquement ${sentNotificationDays} jours après l’envoi, comme chaque lettre d’information et chaque e-mail de confirmation qu’il vous a envoyés.`,
          },
          {
            kind: "paragraph",
            text: "Votre abonnement à la lettre d’information est gardé jusqu’à votre désabonnement ; une demande d’abonnement jamais confirmée est effacée après 30 jours.",
          },
          {
            kind: "paragraph",
            text: `Je garde une inscription à un cours pendant ${retentionMonths} mois après la date du cours (la dernière date, pour un cours en plusieurs séances), puis je l’efface. J’y note votre présence à chaque séance (présent, absent ou excusé) : elle est effacée avec l’inscription.`,
          },
          {
            kind: "paragraph",
            text: "Si vous devenez client(e), je garde les factures et les pièces comptables pendant dix ans, comme la loi l’exige (art. 958f du Code des obligations). Sur une facture, j’inscris votre nom (ou celui de votre organisation) et votre adresse postale ; j’enregistre aussi votre adresse e-mail et votre téléphone si vous me les donnez, pour vous l’envoyer.",
          },
          {
            kind: "paragraph",
            text: "Si vous me demandez d’effacer vos données, je le fais plus tôt, sauf ce que la loi m’oblige à garder.",
          },
        ],
      },
      {
        id: "destinataires",
        title: "Qui reçoit vos données",
        blocks: [
          {
            kind: "paragraph",
            text: "Vos données ne sont transmises à personne, à l’exception des deux prestataires techniques suivants. Ils les traitent seulement pour mon compte et selon mes instructions :",
          },
          {
            kind: "providers",
            items: [
              { provider: hosting, role: "héberge le site et la base de données où sont enregistrées les demandes." },
              { provider: mailProvider, role: "transmet à ma boîte e-mail l’avis de chaque nouvelle demande." },
            ],
          },
          { kind: "paragraph", text: whereText },
          {
            kind: "paragraph",
            text: "Je ne transmets vos données à aucune autre personne ni entreprise, sauf si la loi m’y oblige (par exemple sur demande d’une autorité).",
          },
        ],
      },
      {
        id: "cookies",
        title: "Aucun cookie, aucune statistique, aucune publicité",
        blocks: [
          {
            kind: "paragraph",
            text: "Ce site ne dépose aucun cookie sur votre appareil. Il ne contient ni outil de statistiques de visites, ni publicité, ni bouton de réseau social qui suivrait votre navigation. Seul mon espace de travail privé, auquel je suis seul à me connecter, utilise un cookie de session, le temps de ma connexion.",
          },
          {
            kind: "paragraph",
            text: "Les polices de caractères, les images et les programmes du site viennent du site lui-même : quand vous le consultez, votre navigateur ne se connecte à aucun autre serveur, sauf si vous lancez une vidéo (voir plus bas).",
          },
          {
            kind: "paragraph",
            text: "Votre navigateur retient seulement, tant que l’onglet reste ouvert, l’endroit où vous en étiez dans chaque page, pour vous y ramener quand vous revenez en arrière. Cette information reste sur votre appareil et n’est jamais envoyée.",
          },
        ],
      },
      {
        id: "journal",
        title: "Le journal du serveur",
        blocks: [
          {
            kind: "paragraph",
            text: `Comme tout site, le serveur tient un journal technique qui sert à repérer les pannes. Pour chaque page demandée, il note l’heure, le type de demande (par exemple « GET »), l’adresse de la page, le code de réponse (par exemple « 200 ») et la durée de traitement. Il ne note ni votre adresse IP, ni votre navigateur, ni rien d’autre sur vous. Ce journal est effacé après ${logRetentionDays} jours.`,
          },
          {
            kind: "paragraph",
            text: `Pour empêcher les envois abusifs du formulaire de contact, le serveur compte pendant ${rateLimitMinutes} minutes les envois faits depuis chaque adresse IP. Ce compte est enregistré dans la base de données, non pas avec votre adresse IP, mais avec une empreinte calculée à partir d’elle (un hachage). Il est effacé automatiquement au plus tard un jour après la fin de ce délai.`,
          },
          {
            kind: "paragraph",
            text: "Pour qu’une seule connexion ne prenne pas toutes les places d’un cours, et qu’une adresse e-mail ne reçoive pas trop de messages envoyés depuis le site, le serveur compte, pour la journée, les places réservées depuis chaque connexion et les e-mails écrits à chaque adresse. Il les enregistre, non pas avec l’adresse IP ou l’adresse e-mail, mais avec une empreinte (un hachage) calculée avec une clé tirée au hasard chaque jour. Cette clé est effacée automatiquement après deux jours : l’empreinte ne permet alors plus de retrouver qui que ce soit.",
          },
          {
            kind: "paragraph",
            text: "L’hébergeur peut tenir ses propres journaux techniques, qui contiennent en général l’adresse IP, pour assurer la sécurité de ses serveurs.",
          },
        ],
      },
      {
        id: "videos",
        title: "Les vidéos YouTube",
        blocks: [
          {
            kind: "paragraph",
            text: "Certains articles du blog contiennent une vidéo hébergée par YouTube. Tant que vous ne cliquez pas sur « Regarder la vidéo », rien n’est chargé depuis YouTube : vous voyez seulement une image venant de ce site.",
          },
          {
            kind: "paragraph",
            text: [
              "Quand vous cliquez, le lecteur de YouTube se charge depuis youtube-nocookie.com, le mode de confidentialité renforcée de YouTube. Votre navigateur se connecte alors aux serveurs de YouTube, un service de Google : Google reçoit votre adresse IP, des informations sur votre navigateur et l’adresse de ce site, et peut enregistrer des informations sur votre appareil. Google peut traiter ces données hors de Suisse, notamment aux États-Unis, selon sa propre ",
              { text: "politique de confidentialité", href: "https://policies.google.com/privacy?hl=fr" },
              ".",
            ],
          },
          {
            kind: "paragraph",
            text: "Si JavaScript est désactivé dans votre navigateur, l’image est un simple lien qui vous mène sur le site de YouTube.",
          },
        ],
      },
      {
        id: "droits",
        title: "Vos droits",
        blocks: [
          { kind: "paragraph", text: "Vous pouvez à tout moment, gratuitement :" },
          {
            kind: "list",
            items: [
              "savoir si je traite des données vous concernant, lesquelles et pourquoi, et en recevoir une copie (droit d’accès, art. 25 LPD);",
              "faire corriger des données inexactes (droit de rectification, art. 32 LPD);",
              "faire effacer vos données (droit à l’effacement, art. 32 LPD);",
              "vous opposer à leur traitement, par exemple pour ne plus recevoir la lettre d’information (droit d’opposition, art. 30 LPD);",
              "retirer votre accord, pour la suite;",
              "recevoir les données que vous m’avez confiées dans un format courant, ou les faire transmettre à quelqu’un d’autre (droit à la remise des données, art. 28 LPD).",
            ],
          },
          {
            kind: "paragraph",
            text: "En particulier, vous pouvez me demander de vous remettre toutes les données que le site a enregistrées sur vous, ou de les effacer toutes. Je les retrouve par votre adresse e-mail ou par votre numéro de téléphone ; si une autre personne utilise le même numéro ou la même adresse, seules vos propres données sont concernées. Je vous les remets alors dans un document facile à lire, que je peux imprimer ou vous envoyer en PDF, et dans un fichier, ou je les efface en une seule fois. Si vous avez inscrit un proche à un cours, son inscription reste : seules vos coordonnées en sont effacées. Une facture que je vous ai adressée est gardée dix ans, comme la loi l’exige : si vous demandez l’effacement de vos données, seuls votre adresse e-mail et votre numéro de téléphone en sont effacés.",
          },
          {
            kind: "paragraph",
            text: [
              "Pour cela, écrivez-moi par e-mail ou par courrier (voir ",
              { text: "« Qui est responsable de vos données »", href: "#responsable" },
              "). Je vous réponds dans les 30 jours. Pour protéger vos données, je peux vous demander de confirmer votre identité.",
            ],
          },
          {
            kind: "paragraph",
            text: [
              "Si vous estimez que je ne respecte pas vos droits, vous pouvez vous adresser au Préposé fédéral à la protection des données et à la transparence (PFPDT), Feldeggweg 1, 3003 Berne (",
              { text: "www.edoeb.admin.ch", href: "https://www.edoeb.admin.ch/fr" },
              ").",
            ],
          },
        ],
      },
      {
        id: "modifications",
        title: "Modifications",
        blocks: [
          {
            kind: "paragraph",
            text: "Je mets cette page à jour quand ma façon de traiter vos données change. La date de la dernière mise à jour figure ci-dessous.",
          },
        ],
      },
    ],
  });
}
