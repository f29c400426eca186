/**
 * The live desk's shapes, shared by the server (app/desk/live.server.ts)
 * and the desk's pages (browser-safe; docs/decisions/025-live-desk.md).
 *
 * A `DeskSnapshot` is what the badges show and what the event stream
 * (`DESK_LIVE_PATH`) sends: counts and row ids only, never a name or an
 * address. The page compares each event with the snapshot its loader gave
 * and reloads its data (revalidation) when they differ: the list, the
 * badges and the tab's title then come from the loaders, as on a reload
 * without JavaScript.
 */

/** The event stream of the desk (server-sent events; the owner's session only). */
export const DESK_LIVE_PATH = "/admin/direct";

/** The name of the stream's events (`event: counts`), whose data is a `DeskSnapshot` as JSON. */
export const DESK_LIVE_EVENT = "counts";

/** What is new for the owner, by kind. */
export interface DeskCounts {
  /** Contact and callback requests still « Nouveau ». */
  requests: number;
  /** Course registrations made on the site (not by the owner) since he last opened /admin/cours. */
  registrations: number;
  /** Newsletter subscriptions confirmed since he last opened /admin/lettres or /admin/abonnes. */
  subscriptions: number;
  /**
   * People without e-mail still to call: about a moved or cancelled date (`course_calls` not ticked « appelé·e »),
   * or to offer them a freed seat before its hold ends (`course_offers` open, by call).
   */
  calls: number;
  /** Mails not delivered (refused or given up) the owner has neither sent again nor left aside (`/admin/non-remis`). */
  undelivered: number;
  /** Courses below their minimum at their go/no-go time, still to keep or cancel (`course_go_no_go`, decision 052). */
  decisions: number;
  /** The session page of the oldest of them (its anchor's id), where the two buttons are; 0 when none. */
  decisionSession: number;
}

/** The counts and the latest id of each kind (0 when none): a new row changes the snapshot even when a count does not. */
export interface DeskSnapshot extends DeskCounts {
  latest: { request: number; registration: number; subscription: number };
}

/** The number of new things of every kind, of calls to make, of mails not delivered and of courses to decide: the tab title's « (3) ». */
export const totalNew = (counts: DeskCounts) =>
  counts.requests + counts.registrations + counts.subscriptions + counts.calls + counts.undelivered + counts.decisions;

/** A desk page's title with the number of new things in front, « (3) Demandes | Bureau », as mail tabs do. */
export function titleWithCount(title: string, counts: DeskCounts | undefined): string {
  const total = counts ? totalNew(counts) : 0;
  return total > 0 ? `(${total}) ${title}` : title;
}

/** Whether two snapshots show the same thing (an event that changes nothing reloads nothing). */
export function sameSnapshot(a: DeskSnapshot, b: DeskSnapshot): boolean {
  return (
    a.requests === b.requests &&
    a.registrations === b.registrations &&
    a.subscriptions === b.subscriptions &&
    a.calls === b.calls &&
    a.undelivered === b.undelivered &&
    a.decisions === b.decisions &&
    a.decisionSession === b.decisionSession &&
    a.latest.request === b.latest.request &&
    a.latest.registration === b.latest.registration &&
    a.latest.subscription === b.latest.subscription
  );
}
