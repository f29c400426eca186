/**
 * The site footer (spec section 2 "Footer"): the five section links, name and cantons, the help links (callback,
 * questions, the trainer's promise: issue 23), copyright and the legal pages.
 */
import { Link, useLocation } from "react-router";
import type { NavItem } from "~/content/navigation";
import { navHref } from "./nav-link";

/** The footer's words, given by the root loader (from `app/content/`), so that they stay out of the JavaScript. */
export interface FooterWords {
  /** The two-line brand (`identity.brand`). */
  brand: { line1: string; line2: string };
  /** The trainer's name (`identity.name`). */
  name: string;
  /** The cantons served, in `zones` order. */
  cantons: string[];
  navItems: NavItem[];
  legalLinks: { href: string; label: string }[];
  /** Callback, questions, the trainer's promise (`helpLinks`). */
  helpLinks: { href: string; label: string }[];
}

/** The site footer, with its words from the root loader. */
export function Footer({ words }: { words: FooterWords }) {
  const { brand, name, cantons, navItems, legalLinks, helpLinks } = words;
  const { pathname } = useLocation();
  return (
    <footer className="bg-ink text-white">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-2">
        <div>
          <p className="text-xl font-bold">
            {brand.line1} {brand.line2}
          </p>
          <p className="mt-2 text-white/90">
            {/* The cantons hold together: a narrow screen breaks after "·", inside the list only when it cannot fit a line (large text). */}
            {name}&nbsp;· <span className="inline-block">{cantons.join(" • ")}</span>
          </p>
          <nav aria-label="Aide et confiance" className="mt-4">
            <ul className="-mx-3 flex flex-col">
              {helpLinks.map((link) => (
                <li key={link.href}>
                  <Link
                    to={link.href}
                    className="inline-flex min-h-12 items-center rounded-lg px-3 font-semibold text-white underline underline-offset-4 hover:no-underline focus-visible:outline-white"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <nav aria-label="Pied de page">
          <ul className="flex flex-wrap gap-x-2 gap-y-1 md:justify-end">
            {navItems.map((item) => (
              <li key={item.section}>
                {/* The footer scrolls to the home sections, Blog included (spec "Footer"). */}
                <a
                  href={navHref({ section: item.section }, pathname)}
                  className="inline-flex min-h-12 items-center rounded-lg px-3 font-semibold text-white underline-offset-4 hover:underline focus-visible:outline-white"
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="flex flex-col items-center gap-x-6 gap-y-1 border-t border-white/20 px-4 py-4 text-lg text-white/90 sm:flex-row sm:justify-center">
        <p suppressHydrationWarning>
          © {new Date().getFullYear()} {name}
        </p>
        <nav aria-label="Informations légales">
          <ul className="flex flex-wrap justify-center gap-x-2">
            {legalLinks.map((link) => (
              <li key={link.href}>
                <Link
                  to={link.href}
                  className="inline-flex min-h-12 items-center rounded-lg px-3 text-white underline underline-offset-4 hover:no-underline focus-visible:outline-white"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
