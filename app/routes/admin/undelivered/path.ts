/** The desk's page of mails not delivered: the badge's link, and where their forms post. */
export const UNDELIVERED_PATH = "/admin/non-remis";
