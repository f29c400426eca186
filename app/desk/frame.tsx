/**
 * The desk's frame: a plain header with the desk's name and, once signed
 * in, its sections (Demandes, Lettre and Cours each with the number of new
 * requests, subscriptions and registrations, app/desk/live.ts; Factures; Devis;
 * Personne; Données: the register and the breach log; Réglages; « E-mails
 * non remis » with their number, while there are some) and the two
 * sign-out buttons (forms that post: they
 * work without JavaScript), and a polite live region that says how many
 * things are new when the number changes while the page is open. Readable
 * at 320 px: the header wraps; never printed.
 */
import type { ReactNode } from "react";
import { Form, Link, NavLink } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/utils/cn";
import { totalNew, type DeskCounts } from "./live";

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "inline-flex min-h-12 items-center gap-2 rounded-xl px-3 text-lg font-semibold text-ink no-underline hover:bg-primary-soft focus-visible:outline-3 focus-visible:outline-primary",
    isActive && "bg-primary-soft text-primary",
  );

/** The `tel:` address of a telephone number as typed (digits and `+` kept). */
export const telHref = (phone: string) => `tel:${phone.replace(/[^0-9+]/g, "")}`;

/** A text link in the desk: coloured and underlined, so that it reads as a link. */
export const deskLinkClass = "font-semibold text-primary underline underline-offset-4 hover:text-primary-strong";

/** The link back to a list, above a desk page's title ("← Toutes les demandes"). */
export function DeskBackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p>
      <Link to={to} className={`text-lg ${deskLinkClass}`}>
        ← {children}
      </Link>
    </p>
  );
}

/**
 * The number of new things beside a section's name (« 3 »), which a screen
 * reader reads with its words (`one`, `many`: « 3 nouvelles »); nothing at 0.
 */
function NewBadge({ count, one, many }: { count: number; one: string; many: string }) {
  if (count <= 0) return null;
  return (
    <span data-new-count={count} className="rounded-full bg-accent px-2.5 py-0.5 text-base text-white">
      {count}
      <span className="sr-only"> {count > 1 ? many : one}</span>
    </span>
  );
}

/** « 2 à appeler » beside « Cours »: people without e-mail still to call about a changed date; nothing at 0. */
function CallsBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span data-calls-count={count} className="rounded-full border-2 border-accent px-2 py-0.5 text-base text-accent">
      {count} à appeler
    </span>
  );
}

/** « E-mails non remis 2 », linking to their page, beside the sections; nothing at 0. */
function UndeliveredLink({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <NavLink to="/admin/non-remis" className={navLinkClass}>
      E-mails non remis
      <span data-undelivered-count={count} className="rounded-full bg-red-700 px-2.5 py-0.5 text-base text-white">
        {count}
      </span>
    </NavLink>
  );
}

/**
 * « Cours à décider » beside the sections while a course below its minimum waits for the owner's decision
 * (decision 052): to its session page (the oldest, when several), where « La maintenir quand même » and
 * « Annuler la session » are; nothing at 0.
 */
function DecisionsLink({ count, sessionId }: { count: number; sessionId: number }) {
  if (count <= 0 || sessionId <= 0) return null;
  return (
    <NavLink to={`/admin/cours/${sessionId}#decision`} className={navLinkClass}>
      Cours à décider
      <span data-decisions-count={count} className="rounded-full bg-accent px-2.5 py-0.5 text-base text-white">
        {count}
      </span>
    </NavLink>
  );
}

/** « 3 nouveautés » for the live region, or nothing. */
function newThings(total: number): string {
  if (total === 0) return "";
  return total === 1 ? "1 nouveauté dans le bureau" : `${total} nouveautés dans le bureau`;
}

export function DeskFrame({ children, live }: { children: ReactNode; live?: DeskCounts }) {
  const signedIn = live !== undefined;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 pb-16">
      <header className="flex flex-wrap items-center gap-x-6 gap-y-2 border-b-2 border-gray-200 py-4 print:hidden">
        <p className="text-xl font-bold text-primary">Bureau</p>
        {signedIn ? (
          <>
            <nav aria-label="Bureau" className="flex flex-wrap gap-2">
              <NavLink to="/admin" end className={navLinkClass}>
                Demandes
                <NewBadge count={live.requests} one="nouvelle" many="nouvelles" />
              </NavLink>
              <NavLink to="/admin/lettres" className={navLinkClass}>
                Lettre
                <NewBadge count={live.subscriptions} one="nouvel abonné" many="nouveaux abonnés" />
              </NavLink>
              <NavLink to="/admin/articles" className={navLinkClass}>
                Articles
              </NavLink>
              <NavLink to="/admin/images" className={navLinkClass}>
                Images
              </NavLink>
              <NavLink to="/admin/cours" className={navLinkClass}>
                Cours
                <NewBadge count={live.registrations} one="nouvelle inscription" many="nouvelles inscriptions" />
                <CallsBadge count={live.calls} />
              </NavLink>
              <NavLink to="/admin/factures" className={navLinkClass}>
                Factures
              </NavLink>
              <NavLink to="/admin/devis" className={navLinkClass}>
                Devis
              </NavLink>
              <NavLink to="/admin/personne" className={navLinkClass}>
                Personne
              </NavLink>
              <NavLink to="/admin/donnees" className={navLinkClass}>
                Données
              </NavLink>
              <NavLink to="/admin/reglages" className={navLinkClass}>
                Réglages
              </NavLink>
              <UndeliveredLink count={live.undelivered} />
              <DecisionsLink count={live.decisions} sessionId={live.decisionSession} />
            </nav>
            <Form method="post" action="/admin/deconnexion" className="ml-auto flex flex-wrap gap-2">
              <button type="submit" name="intent" value="ici" className={buttonVariants({ variant: "outline" })}>
                Se déconnecter
              </button>
              <button type="submit" name="intent" value="partout" className={buttonVariants({ variant: "ghost" })}>
                Se déconnecter partout
              </button>
            </Form>
            <p aria-live="polite" className="sr-only">
              {newThings(totalNew(live))}
            </p>
          </>
        ) : (
          <a href="/" className={`ml-auto text-lg ${deskLinkClass}`}>
            Retour au site
          </a>
        )}
      </header>
      {children}
    </div>
  );
}
