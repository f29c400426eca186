/** The `/rappel` action's answer, read by its page. */
import type { SubmissionResult } from "@conform-to/react";

export type CallbackActionData = {
  status: "success" | "invalid" | "rate-limited" | "too-large" | "error";
  result: SubmissionResult<string[]>;
  /** The request's code word, on success only. */
  codeWord?: string;
};
