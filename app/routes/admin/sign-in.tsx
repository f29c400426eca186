/**
 * `/admin/connexion`: the owner's sign-in, in two steps on one page
 * (e-mail and password, then the code of the authenticator app or a
 * recovery code), or in one step (e-mail, password and code, with a short
 * explanation) while the account is over its allowance of failed
 * passwords. Works without JavaScript; the public actions' guards apply
 * (body limit, honeypot, a coarse limit per address), and failed attempts
 * are limited per address and per account (app/desk/sign-in.server.ts).
 * A signed-in owner is sent to `/admin`.
 */
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { cookiePrefix } from "~/desk/auth.server";
import { FieldError, Notice, TextField } from "~/desk/form-parts";
import { DeskFrame, deskLinkClass } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { checkCombined, checkPassword, checkSecondFactor, type SignInOutcome } from "~/desk/sign-in.server";
import {
  codeStepSchema,
  combinedStepSchema,
  passwordStepSchema,
  SIGN_IN_BODY_LIMIT_BYTES,
  SIGN_IN_HONEYPOT,
  signInMessages,
  type SignInActionData,
  type SignInStep,
} from "~/desk/sign-in-form";
import { guardPublicAction } from "~/guards/public-action.server";
import { databaseFailure } from "~/utils/database-down.server";
import type { Route } from "./+types/sign-in";
import { settingsContext, authContext } from "~/context.server";

export const handle = deskHandle;

/** Whether the browser holds a pending second step (Better Auth's signed `two_factor` cookie). */
function hasPendingSecondStep(request: Request, siteUrl: string): boolean {
  const name = `${cookiePrefix(siteUrl)}.two_factor=`;
  return (request.headers.get("Cookie") ?? "").split(/;\s*/).some((cookie) => cookie.startsWith(name));
}

const noStore = { "Cache-Control": "no-store" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await context.get(authContext).api.getSession({ headers: request.headers });
  if (session?.user.twoFactorEnabled) throw redirect("/admin", { headers: noStore });
  const restart = new URL(request.url).searchParams.has("recommencer");
  const step = !restart && hasPendingSecondStep(request, context.get(settingsContext).SITE_URL) ? "code" : "password";
  return data({ step } as { step: SignInActionData["step"] }, { headers: noStore });
}

export const meta: Route.MetaFunction = () => deskMeta("Connexion");

/** Redirects (303) to `to`, passing on Better Auth's cookies. */
function redirectWith(to: string, cookies: string[]) {
  const headers = new Headers(noStore);
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return redirect(to, { status: 303, headers });
}

const refusal: Record<Exclude<SignInOutcome["outcome"], "second-step" | "signed-in" | "code-required">, string> = {
  refused: signInMessages.refused,
  replayed: signInMessages.replayed,
  expired: signInMessages.expired,
  limited: signInMessages.limited,
};

/** The step a form posted (its hidden field); anything else is the password step. */
function postedStep(formData: FormData): SignInStep {
  const step = formData.get("step");
  return step === "code" || step === "combined" ? step : "password";
}

/** The messages of a failed validation, by field. */
const fieldErrorsOf = (issues: { path: PropertyKey[]; message: string }[]) =>
  Object.fromEntries(issues.map((issue) => [issue.path[0], issue.message]));

/** The page again with `body` (never stored), and the cookies to set. */
function reply(body: SignInActionData, status: number, cookies: string[] = []) {
  const headers = new Headers(noStore);
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return data(body, { status, headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const guard = await guardPublicAction(request, context, {
    name: "sign-in",
    bodyLimitBytes: SIGN_IN_BODY_LIMIT_BYTES,
    honeypotField: SIGN_IN_HONEYPOT,
  });
  if (guard.outcome === "too-large") return reply({ step: "password", error: signInMessages.tooLarge }, 413);
  const step = postedStep(guard.formData);
  // The combined step shows the e-mail typed again (never the password).
  const email = step === "combined" ? String(guard.formData.get("email") ?? "").slice(0, 254) : undefined;
  if (guard.outcome === "rate-limited") return reply({ step, email, error: signInMessages.limited }, 429);
  if (guard.outcome === "spam") return reply({ step: "password", error: signInMessages.refused }, 401);
  try {
    return await checkStep(request, context, guard.formData, step, email);
  } catch (error) {
    // The database does not answer (Better Auth's queries, the limits): the page says so, never a 500;
    // logged once for a whole outage (app/db/outage.server.ts).
    await databaseFailure(context, error, "desk: sign-in unavailable");
    return reply({ step, email, error: signInMessages.unavailable }, 503);
  }
}

/** The checks of the posted step, once the guards let it through. */
async function checkStep(
  request: Request,
  context: Route.ActionArgs["context"],
  formData: FormData,
  step: SignInStep,
  email: string | undefined,
) {
  if (step === "password") {
    const parsed = passwordStepSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return reply({ step, fieldErrors: fieldErrorsOf(parsed.error.issues) }, 400);
    const result = await checkPassword(request, context, parsed.data);
    if (result.outcome === "second-step") return redirectWith("/admin/connexion", result.cookies);
    // The same answer whatever the password: the combined step, with its explanation.
    if (result.outcome === "code-required") return reply({ step: "combined", email: parsed.data.email }, 401);
    return reply(
      { step, error: refusal[result.outcome as keyof typeof refusal] },
      result.outcome === "limited" ? 429 : 401,
    );
  }

  if (step === "combined") {
    const parsed = combinedStepSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return reply({ step, email, fieldErrors: fieldErrorsOf(parsed.error.issues) }, 400);
    const result = await checkCombined(request, context, parsed.data);
    if (result.outcome === "signed-in") return redirectWith("/admin", result.cookies);
    // Whatever part was wrong, the same answer.
    return result.outcome === "limited"
      ? reply({ step, email, error: signInMessages.limited }, 429)
      : reply({ step, email, error: signInMessages.combinedRefused }, 401);
  }

  const parsed = codeStepSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return reply({ step, fieldErrors: { code: signInMessages.code } }, 400);
  const result = await checkSecondFactor(request, context, parsed.data);
  if (result.outcome === "signed-in") return redirectWith("/admin", result.cookies);
  const message =
    result.outcome === "refused" ? signInMessages.codeRefused : refusal[result.outcome as keyof typeof refusal];
  const status = result.outcome === "limited" ? 429 : 401;
  return reply({ step: result.outcome === "expired" ? "password" : "code", error: message }, status, result.cookies);
}

/** The code field, its hint and its error: the code step's and the combined step's. */
function CodeField({ error }: { error?: string }) {
  return (
    <div>
      <Label htmlFor="code">Code de vérification</Label>
      <p id="code-hint" className="mt-1 text-lg text-muted">
        Le code à 6 chiffres de votre application d’authentification, ou l’un de vos codes de secours.
      </p>
      <Input
        id="code"
        name="code"
        inputMode="text"
        autoComplete="one-time-code"
        autoCapitalize="off"
        spellCheck={false}
        required
        className="mt-2 text-2xl tracking-widest"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "code-hint code-error" : "code-hint"}
      />
      <FieldError id="code-error" message={error} />
    </div>
  );
}

export default function SignIn() {
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const step = answer?.step ?? loaded.step;
  const fieldErrors = answer?.fieldErrors ?? {};
  return (
    <DeskFrame>
      <div className="mx-auto mt-10 max-w-md">
        <h1 className="text-3xl font-bold">Connexion au bureau</h1>
        {answer?.error ? (
          <Notice tone="alert" className="mt-6">
            {answer.error}
          </Notice>
        ) : null}
        {step === "combined" ? (
          <Notice tone="status" className="mt-6">
            {signInMessages.codeRequired}
          </Notice>
        ) : null}
        <Form key={step} method="post" action="/admin/connexion" className="mt-6 space-y-6" noValidate>
          <input type="hidden" name="step" value={step} />
          <div className="hidden" aria-hidden="true">
            <label htmlFor="website">Ne pas remplir</label>
            <input id="website" name={SIGN_IN_HONEYPOT} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
          </div>
          {step === "code" ? null : (
            <>
              <TextField
                id="email"
                label="Adresse e-mail"
                type="email"
                autoComplete="username"
                required
                defaultValue={answer?.email}
                error={fieldErrors.email}
              />
              <TextField
                id="password"
                label="Mot de passe"
                type="password"
                autoComplete="current-password"
                required
                error={fieldErrors.password}
              />
            </>
          )}
          {step === "password" ? (
            <Button type="submit" disabled={busy} className="w-full">
              Continuer
            </Button>
          ) : (
            <>
              <CodeField error={fieldErrors.code} />
              <Button type="submit" disabled={busy} className="w-full">
                Se connecter
              </Button>
            </>
          )}
          {step === "code" ? (
            <p className="text-lg">
              <a href="/admin/connexion?recommencer" className={deskLinkClass}>
                Recommencer avec l’e-mail et le mot de passe
              </a>
            </p>
          ) : null}
        </Form>
      </div>
    </DeskFrame>
  );
}
