/** What `POST /newsletter` answers (JSON for the box, data for the page). */
export interface SubscribeActionData {
  status: "received" | "invalid" | "rate-limited" | "too-large" | "error";
  message: string;
}
