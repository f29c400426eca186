/** The `/contact` action's answer, read by the contact dialog (fetcher) and the `/contact` page. */
import type { SubmissionResult } from "@conform-to/react";

export type ContactActionData = {
  status: "success" | "invalid" | "rate-limited" | "too-large" | "error";
  result: SubmissionResult<string[]>;
  /** The request's code word (app/trust/code-word.server.ts), on success only. */
  codeWord?: string;
};
