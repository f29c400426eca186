/**
 * What a zod schema says of an input, as the forms show it: the message of
 * each refused field by its path ("phone", "bookerFirstName"), `{}` when the
 * input is valid. For the schema tests of the forms (contact, registration).
 */
import type { z } from "zod";

export function schemaErrors(schema: z.ZodType, input: Record<string, unknown>): Record<string, string> {
  const result = schema.safeParse(input);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), issue.message]));
}
