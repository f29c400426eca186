/**
 * What a desk page's action hands to each of its intent functions (one
 * function per posted `intent`, the route's action only dispatches): the
 * posted form, the request's typed context, and the page's record id
 * (`idParam`, 0 for a page without one).
 */
import type { RequestContext } from "~/context.server";

/** The arguments of one desk intent function. */
export interface DeskIntentArgs {
  /** The posted form (already read under the route's body limit). */
  form: FormData;
  context: RequestContext;
  /** The page's record id (`/admin/…/:id`). */
  id: number;
}
