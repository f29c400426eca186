/**
 * What the privacy pages give the mechanisms (app/desk/feature.ts): the
 * breach log's table, which holds no visitor's data (categories and counts,
 * never a name), and its processing in the register (LPD art. 12), as its
 * data is in no table of the person registry.
 */
import type { Feature } from "~/desk/feature";
import type { Processing } from "~/desk/processing";

/** The breach log in the register of processings: kept, never erased by the retention job. */
export const BREACH_LOG_PROCESSING: Processing = {
  key: "breach-log",
  title: "Journal des violations de la sécurité des données",
  purpose:
    "Documenter chaque violation de la sécurité des données, les mesures prises et son annonce au PFPDT et aux personnes concernées (art. 24 LPD)",
  data: [
    "ce qui s’est passé, quand, et les mesures prises",
    "catégories et nombre des données et des personnes concernées, sans nom",
    "évaluation du risque, dates de l’annonce au PFPDT et de l’information des personnes",
  ],
  people: ["personnes touchées par une violation (décrites par catégories et par nombre seulement)"],
  retention: () =>
    "Au moins deux ans après l’annonce au PFPDT (art. 15 al. 4 OPDo) ; le site ne l’efface jamais de lui-même",
  recipients: ["hosting"],
  safeguards: ["chaque ajout et chaque modification est inscrit au journal d’audit"],
  alsoStoredIn: ["data_breaches"],
};

export const privacyFeature: Feature = {
  name: "privacy",
  person: {
    tables: [],
    otherTables: {
      data_breaches:
        "the owner's breach log (LPD art. 24): categories and counts of the data and people concerned, never a name; kept, never erased by retention",
    },
    processings: [BREACH_LOG_PROCESSING],
  },
};
