/**
 * Registrations for course sessions, one module per operation; this file
 * only lists them, for the callers that import the whole of bookings
 * (the tests). New code imports the operation's
 * module.
 *
 * - seats.server.ts: the one module that locks `course_sessions` rows and
 *   moves seats (a series' sessions in id order: no deadlock between two
 *   series bookings; the table's `seats_taken <= capacity` check behind).
 * - register.server.ts: `registerForSession` (the form, or the owner by telephone).
 * - registrations.server.ts: `findRegistrationByToken`, `everyDateCancelled`, `listRegistrations`.
 * - cancel.server.ts: `cancelRegistration` (the person's link),
 *   `cancelRegistrationByOwner` (the desk), `announceFreedSeats` (after an erasure).
 * - waiting-list.server.ts: the arrival order; offers.server.ts: a freed seat offered with a hold;
 *   offer-owner.server.ts: `giveSeat`.
 * - session-changes.server.ts: `cancelSession`, `moveSeriesDate`.
 * - reminders.server.ts: reminders 24 hours before each date, dropped on a change.
 * - registrants.server.ts: who a registration's mails go to, its link token
 *   (purpose `course-registration`, read and never consumed, valid until 7
 *   days after the last date), its calendar file.
 * Every operation writes its mails to the outbox in its own transaction.
 */
export {
  cancelRegistration,
  cancelRegistrationByOwner,
  announceFreedSeats,
  type CancelResult,
  type FreedSeats,
} from "./cancel.server";
export { registerForSession, type RegistrationResult } from "./register.server";
export { peopleOf, REGISTRATION_TOKEN_PURPOSE, type LinkOptions, type RegistrationRow } from "./registrants.server";
export {
  everyDateCancelled,
  findRegistrationByToken,
  listRegistrations,
  type RegistrationByToken,
} from "./registrations.server";
export { REMINDER_BEFORE_MS } from "./reminders.server";
export { type SeatGroup } from "./seats.server";
export { cancelSession, moveSeriesDate, type SeriesDateMove, type SessionCancellation } from "./session-changes.server";
export { giveSeat } from "./offer-owner.server";
