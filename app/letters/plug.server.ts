/**
 * What the letters give the mechanisms (app/desk/feature.ts): the letters
 * posted to a person (`postal_letters`) in the person registry, found by
 * the e-mail or telephone of the registration they were sent for (its
 * attendee: a letter names no one else), shown with the course and the day
 * posted, exported, and erased with that registration's attendee. The
 * address they went to is the registration's (found, exported and erased
 * with it by the courses' plug). Certificates and signature lists are
 * printed from the attendance when asked and stored nowhere.
 */
import { inArray, sql } from "drizzle-orm";
import { courseRegistrations, postalLetters } from "~/db/schema";
import type { Feature } from "~/desk/feature";
import type { Processing } from "~/desk/processing";
import { deleteRows, keyMatch, personTable, rowsOf, type FieldNames } from "~/desk/person-types";
import { sessionNames } from "~/courses/person.server";
import type { RegistrationRow } from "~/courses/registrants.server";
import { formatDate } from "~/utils/format";

type LetterRow = typeof postalLetters.$inferSelect;

/** The letters posted, in the register of processings (LPD art. 12). */
export const LETTERS_PROCESSING: Processing = {
  key: "postal-letters",
  title: "Lettres envoyées par la poste",
  purpose:
    "Confirmer une inscription par courrier à la personne qui n’a pas d’adresse e-mail, et savoir quelles lettres sont parties",
  data: [
    "jour d’envoi de la lettre et inscription qu’elle concerne",
    "nom et adresse postale de la personne, ceux de son inscription",
  ],
  people: ["participants aux cours sans adresse e-mail"],
  retention: ({ retentionMonths }) =>
    `Effacées avec l’inscription qu’elles concernent, ${retentionMonths} mois après la date du cours`,
  recipients: ["hosting"],
  safeguards: [
    "une lettre ne nomme que la personne à qui elle est adressée",
    "lettres et attestations produites à la demande, jamais gardées en fichier",
  ],
};

export const lettersFeature: Feature = {
  name: "letters",
  person: {
    tables: [
      personTable({
        table: postalLetters,
        processing: LETTERS_PROCESSING,
        title: "Lettres envoyées par la poste",
        noun: { one: "lettre envoyée par la poste", other: "lettres envoyées par la poste" },
        where: (person) =>
          sql`${postalLetters.registrationId} in (select ${courseRegistrations.id} from ${courseRegistrations} where ${keyMatch(person, courseRegistrations.email, courseRegistrations.phoneE164)})`,
        orderBy: postalLetters.id,
        fields: (row, names) => [
          ["À", names.letterRecipients?.get(row.registrationId) ?? "(inscription effacée)"],
          ["Cours", names.letterCourses?.get(row.registrationId) ?? ""],
          ["Envoyée le", formatDate(row.sentOn)],
        ],
      }),
    ],
    async names(db, found): Promise<FieldNames> {
      const letters = rowsOf<LetterRow>(found, postalLetters);
      if (letters.length === 0) return {};
      const ids = [...new Set(letters.map((row) => row.registrationId))];
      const registrations = await db
        .select({
          id: courseRegistrations.id,
          sessionId: courseRegistrations.sessionId,
          firstName: courseRegistrations.firstName,
          lastName: courseRegistrations.lastName,
          postalStreet: courseRegistrations.postalStreet,
          postalCode: courseRegistrations.postalCode,
          postalLocality: courseRegistrations.postalLocality,
        })
        .from(courseRegistrations)
        .where(inArray(courseRegistrations.id, ids));
      const sessions = await sessionNames(
        db,
        registrations.map((row) => row.sessionId),
      );
      return {
        letterRecipients: new Map(
          registrations.map((row) => [
            row.id,
            [
              `${row.firstName} ${row.lastName}`,
              row.postalStreet,
              `${row.postalCode ?? ""} ${row.postalLocality ?? ""}`,
            ]
              .filter((part) => part?.trim())
              .join(", "),
          ]),
        ),
        letterCourses: new Map(registrations.map((row) => [row.id, sessions.get(row.sessionId) ?? ""])),
      };
    },
    // A letter goes with its recipient: the attendee of its registration, when chosen (the courses' rule).
    plan({ found, chosen, everyone }) {
      const attendees = new Map(
        rowsOf<RegistrationRow>(found, courseRegistrations).map((row) => [row.id, `${row.firstName} ${row.lastName}`]),
      );
      const letters = rowsOf<LetterRow>(found, postalLetters);
      const erased = letters.filter((row) => {
        const attendee = attendees.get(row.registrationId);
        return attendee === undefined ? everyone : chosen(attendee);
      });
      return { postal_letters: { erased, changed: [] } };
    },
    async erase(tx, plan) {
      const ids = plan.tables.postal_letters!.erased.map((row) => row.id as number);
      // Letters whose registration the courses' plug erased first went with it (on delete cascade): erased all the same.
      await deleteRows(tx, postalLetters, ids);
      return { deleted: { postal_letters: ids.length } };
    },
  },
};
