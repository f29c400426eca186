/**
 * The addresses of a registration's link (app/routes.ts): its page
 * `/cours/inscription/{token}` (confirmation, cancel button) and its
 * calendar file `/cours/inscription/{token}/calendrier.ics`. Made here only:
 * the booking's mails, the form's redirect, the page and the file's route
 * call these.
 */

/** The path of a registration's page. */
export const registrationPath = (token: string) => `/cours/inscription/${token}`;

/** The address of a registration's calendar file, from its page's address (a path or a full URL). */
export const calendarAddress = (registrationAddress: string) => `${registrationAddress}/calendrier.ics`;

/** The path of an offer's page (a freed seat offered to a person of the waiting list: accept, decline). */
export const offerPath = (token: string) => `/cours/place/${token}`;

/** The short path an SMS reminder carries: « Toujours partant·e ? », yes or cancel (a registration's token). */
export const shortReminderPath = (token: string) => `/r/${token}`;
