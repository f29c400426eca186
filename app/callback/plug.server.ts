/**
 * What the callback requests give the mechanisms (app/desk/feature.ts):
 * the label of their notification. Their rows are contact requests of kind
 * "rappel" (table `contacts`): the contact plug finds and erases them.
 */
import type { Feature } from "~/desk/feature";
import { CALLBACK_NOTIFICATION } from "./notification.server";

export const callbackFeature: Feature = {
  name: "callback",
  mailLabels: { [CALLBACK_NOTIFICATION]: "Avis de nouvelle demande de rappel" },
};
