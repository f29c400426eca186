/** What `POST /newsletter` answers (JSON for the box, data for the page). */
export interface SubscribeActionData {
  status: "received" | "invalid" | "rate-limited" | "too-large" | "error";
  message: string;
  /** For "invalid" and "error": the address as typed, to show it again in the field (the answer to a post is never cached). */
  email?: string;
}
