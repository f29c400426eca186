/**
 * The site's navigation: section anchors of the home page, in header order
 * (spec section 2 "Header" and "Footer").
 */
import { typesetAll } from "~/utils/typography";

/** A header / footer entry: the id of a home-page section, and its label. */
export interface NavItem {
  /** Section id on `/`, e.g. "services". */
  section: string;
  label: string;
  /** Where the entry leads when the visitor is not on `/` (default `/#{section}`). */
  elsewhere?: string;
}

export const navItems: NavItem[] = /* @__PURE__ */ typesetAll([
  { section: "accueil", label: "Accueil" },
  { section: "services", label: "Services" },
  { section: "cours", label: "Cours" },
  { section: "a-propos", label: "À propos" },
  { section: "blog", label: "Blog", elsewhere: "/blog" },
]);

/** The header's call to action, to the contact section. */
export const contactCta = /* @__PURE__ */ typesetAll({ section: "contact", label: "Contactez-moi" });

/** The callback request, beside every "Contactez-moi" (issue 23): `/rappel`. */
export const callbackCta = /* @__PURE__ */ typesetAll({ href: "/rappel", label: "Rappelez-moi", short: "Rappel" });

/** The footer's links to the pages that help and reassure (issue 23). */
export const helpLinks = /* @__PURE__ */ typesetAll([
  { href: "/rappel", label: "Être rappelé(e)" },
  { href: "/questions", label: "Questions fréquentes" },
  { href: "/confiance", label: "Ce que je ne vous demanderai jamais" },
]);

/** The footer's small line of links to the legal pages. */
export const legalLinks = /* @__PURE__ */ typesetAll([
  { href: "/mentions-legales", label: "Mentions légales" },
  { href: "/confidentialite", label: "Confidentialité" },
]);
