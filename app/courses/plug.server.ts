/**
 * What the courses give the mechanisms (app/desk/feature.ts):
 * - the person registry: the registrations where the person is the
 *   attendee or the relative who registered them (app/courses/person.server.ts),
 *   each named by its session and its attendance; an erasure (decision 019)
 *   deletes those whose attendee is chosen (seats given back, link tokens
 *   deleted, then the owner told of the freed seats) and keeps, without the
 *   relative's data, those where only the relative is; the mails of a
 *   registration (`mail_ids`) go with it, or stay emptied while it is kept;
 * - retention: registrations (and their mails) of sessions held more than
 *   `retentionMonths` ago;
 * - the labels of its mails;
 * - the outbox: when the owner corrects a refused address, the registrations
 *   those mails are about take the new one (attendee's or relative's e-mail).
 */
import { sql } from "drizzle-orm";
import { courseRegistrations } from "~/db/schema";
import type { Feature } from "~/desk/feature";
import type { Processing } from "~/desk/processing";
import { countOf, deleteRows, rowsOf, type ErasurePlan } from "~/desk/person-types";
import { attendanceByRegistration, attendanceText } from "./attendance.server";
import { announceFreedSeats, type RegistrationRow } from "./booking.server";
import { BOOKING_MAIL } from "./mails.server";
import { goNoGoJob } from "./go-no-go.server";
import { SMS_REMINDER_KIND } from "./reminder-channels.server";
import { offerJob } from "./offer-job.server";
import { smsReminderJob } from "./sms-reminder-job.server";
import {
  attendeeIs,
  beforeErasingRegistrations,
  bookerIs,
  deleteRegistrationsOfSessionsBefore,
  forgetBookers,
  mailIdArray,
  offersInWords,
  registrationFields,
  registrationMailsMatch,
  registrationMatch,
  sessionNames,
} from "./person.server";

/** The course registrations in the register of processings (LPD art. 12). */
export const COURSES_PROCESSING: Processing = {
  key: "course-registrations",
  title: "Inscriptions aux cours",
  purpose:
    "Organiser les cours : confirmer la place, rappeler la date la veille, prévenir d’un changement, tenir la liste de présence et la facture",
  data: [
    "prénom, nom, téléphone et, si elle est donnée, adresse e-mail de la personne qui participe",
    "mêmes coordonnées du proche qui l’inscrit, le cas échéant",
    "séance, nombre de places, message, mode de paiement et adresse postale pour une facture",
    "dates de l’inscription et de l’annulation, présences (présent, absent, excusé), mots code",
    "accord pour un rappel par SMS, et les SMS envoyés (numéro de mobile, texte, accusé de réception)",
    "places libérées proposées depuis la liste d’attente : nombre de places, délai pour répondre, réponse",
  ],
  people: ["participants aux cours", "proches qui inscrivent quelqu’un"],
  retention: ({ retentionMonths }) =>
    `${retentionMonths} mois après la date du cours (la dernière, pour un cours en plusieurs séances), puis effacées automatiquement avec les présences et leurs e-mails`,
  recipients: ["hosting", "mailProvider"],
  safeguards: [
    "lien d’annulation au jeton aléatoire, enregistré haché, valable jusqu’à une semaine après le cours",
    "nombre de places par connexion et par jour plafonné",
    "rappel par SMS seulement avec l’accord de la personne, sans aucun nom, par un fournisseur suisse (ASPSMS), plafonné par numéro et par jour",
  ],
};

/** The registrations an erasure deletes, and those it keeps without the relative's data. */
const planned = (plan: ErasurePlan) =>
  plan.tables.course_registrations as { erased: RegistrationRow[]; changed: RegistrationRow[] };

export const coursesFeature: Feature = {
  name: "courses",
  person: {
    tables: [
      {
        table: courseRegistrations,
        title: "Inscriptions aux cours",
        processing: COURSES_PROCESSING,
        noun: { one: "inscription à un cours", other: "inscriptions aux cours" },
        changedAs: "registrations_kept",
        where: registrationMatch,
        orderBy: courseRegistrations.id,
        fields: (row, names) =>
          registrationFields(row as RegistrationRow, {
            sessions: names.sessions ?? new Map(),
            attendance: names.attendance,
            offers: names.offers,
          }),
      },
    ],
    otherTables: {
      course_sessions: "dates, places, prices and seat counts of the courses",
      course_series: "which dates of a course are sold together",
      course_attendance:
        "a registration's ticks (présent, absent, excusé) by date, naming no one: found, shown and exported with their registration (its « Présences »), deleted with it (on delete cascade)",
      course_offers:
        "freed seats offered to a person of the waiting list (seats, hold, state, when closed), naming no one: shown and exported with their registration (its « Places proposées »), deleted with it (on delete cascade)",
      course_go_no_go:
        "each course's go/no-go: the first date checked, the confirmed seats and the minimum then, the owner's decision (kept, cancelled), naming no one",
      course_calls:
        "the owner's calls to make about a changed date (a registration, a reason, when ticked), naming no one: the name and telephone are the registration's, deleted with it (on delete cascade)",
    },
    roles: [
      { key: "attendee", describe: (count) => `participe à ${countOf(count, { one: "cours", other: "cours" })}` },
      {
        key: "booker",
        describe: (count) => `a inscrit un proche (${countOf(count, { one: "inscription", other: "inscriptions" })})`,
      },
    ],
    // The owner's notices of a registration name the person but have no recipient of theirs.
    mails: registrationMailsMatch,
    people(found, person, add) {
      for (const row of rowsOf<RegistrationRow>(found, courseRegistrations)) {
        if (attendeeIs(row, person)) add(`${row.firstName} ${row.lastName}`, row.email, row.phone, "attendee");
        if (bookerIs(row, person) && row.bookerFirstName)
          add(`${row.bookerFirstName} ${row.bookerLastName ?? ""}`, row.bookerEmail, row.bookerPhone, "booker");
      }
    },
    async names(db, found) {
      const registrations = rowsOf<RegistrationRow>(found, courseRegistrations);
      const ticks = await attendanceByRegistration(
        db,
        registrations.map((row) => row.id),
      );
      return {
        sessions: await sessionNames(
          db,
          registrations.map((row) => row.sessionId),
        ),
        attendance: new Map(registrations.map((row) => [row.id, attendanceText(ticks.get(row.id))])),
        offers: await offersInWords(
          db,
          registrations.map((row) => row.id),
        ),
      };
    },
    plan({ found, person, chosen }) {
      const rows = rowsOf<RegistrationRow>(found, courseRegistrations);
      const erased = rows.filter((row) => attendeeIs(row, person) && chosen(`${row.firstName} ${row.lastName}`));
      const kept = rows.filter(
        (row) =>
          !erased.includes(row) &&
          bookerIs(row, person) &&
          !!row.bookerFirstName &&
          chosen(`${row.bookerFirstName} ${row.bookerLastName ?? ""}`),
      );
      return { course_registrations: { erased, changed: kept } };
    },
    mailsErasedWith: (plan) => planned(plan).erased.flatMap((row) => row.mailIds),
    // Mails that stay part of a registration that is not erased (found or not under the person's key).
    async mailsKeptWith(db, plan, mails) {
      if (mails.length === 0) return [];
      const holders = await db
        .select({ id: courseRegistrations.id, mailIds: courseRegistrations.mailIds })
        .from(courseRegistrations)
        .where(sql`${courseRegistrations.mailIds} && ${mailIdArray(mails.map((row) => row.id))}`);
      const erased = new Set(planned(plan).erased.map((row) => row.id));
      return holders.filter((holder) => !erased.has(holder.id)).flatMap((holder) => holder.mailIds);
    },
    async erase(tx, plan, options) {
      const { erased, changed } = planned(plan);
      const freedSeats = await beforeErasingRegistrations(tx, erased);
      await forgetBookers(
        tx,
        changed.map((row) => row.id),
        plan.tables.outbox!.erased.map((row) => row.id as number),
        options.now,
      );
      return {
        deleted: {
          course_registrations: await deleteRows(
            tx,
            courseRegistrations,
            erased.map((row) => row.id),
          ),
        },
        after: async () => ({ sessions_freed: await announceFreedSeats(tx, freedSeats, options) }),
      };
    },
  },
  retention: {
    run: async (tx, now, { retentionMonths }) => ({
      courseRegistrations: await deleteRegistrationsOfSessionsBefore(
        tx,
        new Date(
          Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - retentionMonths, now.getUTCDate(), now.getUTCHours()),
        ),
      ),
    }),
  },
  outbox: {
    async addressCorrected(tx, { mailIds, from, to }) {
      if (mailIds.length === 0) return;
      const about = sql`${courseRegistrations.mailIds} && ${mailIdArray(mailIds)}`;
      await tx
        .update(courseRegistrations)
        .set({ email: to })
        .where(sql`${about} and lower(${courseRegistrations.email}) = ${from}`);
      await tx
        .update(courseRegistrations)
        .set({ bookerEmail: to })
        .where(sql`${about} and lower(${courseRegistrations.bookerEmail}) = ${from}`);
    },
  },
  jobs: [offerJob, goNoGoJob, smsReminderJob],
  mailLabels: {
    [BOOKING_MAIL.confirmation]: "Confirmation d’inscription à un cours",
    [BOOKING_MAIL.waiting]: "Inscription sur la liste d’attente d’un cours",
    [BOOKING_MAIL.reminder]: "Rappel la veille d’un cours",
    [SMS_REMINDER_KIND]: "Rappel par SMS la veille d’un cours",
    [BOOKING_MAIL.registrationCancelled]: "Confirmation d’une désinscription d’un cours",
    [BOOKING_MAIL.seatGiven]: "Place attribuée depuis la liste d’attente d’un cours",
    [BOOKING_MAIL.offer]: "Place libérée proposée depuis la liste d’attente d’un cours",
    [BOOKING_MAIL.sessionCancelled]: "Annulation d’une séance de cours",
    [BOOKING_MAIL.dateMoved]: "Changement de date d’une séance de cours",
    [BOOKING_MAIL.ownerRegistration]: "Avis d’une inscription à un cours",
    [BOOKING_MAIL.ownerCancellation]: "Avis d’une désinscription d’un cours",
    [BOOKING_MAIL.ownerErasure]: "Avis d’une place libérée par un effacement",
    [BOOKING_MAIL.ownerDigest]: "Avis groupé de plusieurs inscriptions à des cours",
    [BOOKING_MAIL.ownerBelowMinimum]: "Avis d’un cours sous son minimum d’inscrits, à maintenir ou annuler",
  },
};
