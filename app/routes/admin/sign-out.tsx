/**
 * `POST /admin/deconnexion`: signs out this browser (`intent=ici`) or every
 * session of the account (`intent=partout`), then back to the sign-in page.
 * A GET shows nothing: it goes to the inbox.
 */
import { redirect } from "react-router";
import { audit } from "~/desk/audit.server";
import { SIGN_IN_PATH } from "~/desk/guard.server";
import { readFormData } from "~/guards/body.server";
import type { Route } from "./+types/sign-out";
import { dbContext, loggerContext, authContext, ownerContext } from "~/context.server";

export function loader() {
  return redirect("/admin");
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = context.get(ownerContext);
  const auth = context.get(authContext);
  const everywhere = (await readFormData(request, 4096)).get("intent") === "partout";
  if (everywhere) await auth.api.revokeSessions({ headers: request.headers });
  const response = await auth.api.signOut({ headers: request.headers, asResponse: true });
  await audit(
    context.get(dbContext),
    { actor: owner.userId, action: everywhere ? "sign-out-everywhere" : "sign-out" },
    context.get(loggerContext),
  );
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect(SIGN_IN_PATH, { status: 303, headers });
}
