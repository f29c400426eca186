/**
 * The attendance states the owner ticks on a date (issue 22, item 2) and
 * their French words, shared by the desk's list (client and server), the
 * CSV, the person's page and the table's check (app/db/schema.ts).
 */
import type { AttendanceState } from "~/db/schema";

export type { AttendanceState };

/** What the owner ticks for one person on one date (the column's type: app/db/schema.ts). */
export const ATTENDANCE_STATES = ["present", "absent", "excused"] as const satisfies readonly AttendanceState[];

/** French words of the states, as the list, the person's page and the CSV show them. */
export const ATTENDANCE_LABELS: Record<AttendanceState, string> = {
  present: "Présent(e)",
  absent: "Absent(e)",
  excused: "Excusé(e)",
};
