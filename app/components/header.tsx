/**
 * The fixed site header (spec section 2 "Header"): logo, two-line title
 * with the Swiss flag, navigation, "Contactez-moi" (a link to `/contact`
 * that opens the contact dialog once JavaScript runs) and "Rappelez-moi"
 * (`/rappel`; on phones a "Rappel" button beside the menu's).
 *
 * Small screens: "Appeler" (the owner's telephone one tap away: the tap
 * shows the number as a `tel:` link under the bar; without JavaScript it
 * leads to `/coordonnees`, decision 020), and a "Menu" button (aria-expanded, aria-controls) opens the
 * same entries plus a full-width "Contactez-moi"; a click on an entry or
 * Escape closes it, and focus goes back to the button. Without JavaScript
 * the button is a link to the menu panel, which CSS `:target` shows.
 *
 * Large text (the header narrower than 20 rem: a phone with its text at
 * 125 % or more; never at normal size from 320 px): the bar holds the logo
 * and "Menu" only, "Appeler" moves into the menu under "Rappelez-moi", and
 * the menu scrolls within the screen (issue 33, item 7). The bar's widths
 * are container queries in rem on the header (`@container/header`): at
 * normal size they fall where the former 360 and 400 px did, with larger
 * text they come earlier, whether the browser's text size or a `font-size`
 * on `<html>` grew it.
 */
import { Menu, Phone, PhoneIncoming, X } from "lucide-react";
import { useEffect, useRef, useState, type ComponentProps, type ComponentType, type ReactNode, type Ref } from "react";
import { Link, useLocation } from "react-router";
import type { NavItem } from "~/content/navigation";
import { cn } from "~/utils/cn";
import { useHydrated } from "~/utils/use-hydrated";
import logoUrl from "~/content/pictures/logo.svg?url";
import { navHref } from "./nav-link";
import { SwissFlag } from "./swiss-flag";
import { buttonVariants } from "./ui/button";
import { Tooltip } from "./ui/tooltip";

const MENU_ID = "menu-mobile";
const PHONE_ID = "telephone-entete";
/** The menu's buttons with large text (under 20 rem): narrow padding, so that a word fits a line. */
const LARGE_TEXT_PADDING = "@max-[20rem]/header:px-3";

/** The header's words, given by the root loader (from `app/content/`), so that they stay out of the JavaScript. */
export interface HeaderWords {
  /** The two-line brand (`identity.brand`). */
  brand: { line1: string; line2: string };
  navItems: NavItem[];
  /** The "Contactez-moi" label. */
  contactLabel: string;
  /** The owner's contact channels, encoded (`encodedContactChannels`): the "Appeler" button decodes them when tapped. */
  channels: string;
  /** The callback request's link (`callbackCta`): its label, and the short one beside the menu on phones. */
  callback: { href: string; label: string; short: string };
}

/**
 * The contact feature's pieces the header shows (app/contact/: the root
 * passes `ContactDialogLink`, `PhoneRevealForm` and `PhoneLink`), so that
 * this shared component imports no feature.
 */
export interface HeaderContact {
  /** A link that opens the contact dialog (a plain link to the contact page without JavaScript). */
  DialogLink: ComponentType<ComponentProps<"a">>;
  /** A form that reveals the telephone number (`onReveal` when submitted with JavaScript). */
  RevealForm: ComponentType<{ onReveal: () => void; className?: string; children: ReactNode }>;
  /** The "Appeler" link, the number decoded from `channels`. */
  PhoneLink: ComponentType<{ channels: string; linkRef?: Ref<HTMLAnchorElement>; className?: string }>;
}

/** The fixed header, with its words from the root loader and the contact feature's pieces. */
export function Header({ words, contact }: { words: HeaderWords; contact: HeaderContact }) {
  const { DialogLink: ContactDialogLink, RevealForm: PhoneRevealForm, PhoneLink } = contact;
  const { brand, navItems } = words;
  const { pathname } = useLocation();
  const hydrated = useHydrated();
  // The menu is open on the page where it was opened: any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? pathname : null);
  // The number shown under the bar, on the page where "Appeler" was tapped.
  const [phoneOn, setPhoneOn] = useState<string | null>(null);
  const phoneShown = phoneOn === pathname;
  const phoneLinkRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (phoneShown) phoneLinkRef.current?.focus();
  }, [phoneShown]);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpenOn(null);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open]);

  // "Appeler" (in the bar, or in the menu with large text): shows the number under the bar, or hides it.
  const revealPhone = () => {
    setOpen(false);
    setPhoneOn(phoneShown ? null : pathname);
  };

  const closeAfterClick = () => {
    setOpen(false);
    buttonRef.current?.focus({ preventScroll: true });
  };

  return (
    <header className="@container/header fixed inset-x-0 top-0 z-40 border-b border-line bg-white/95 shadow-sm backdrop-blur supports-[backdrop-filter]:bg-white/90">
      <div className="mx-auto flex min-h-20 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link
          to="/"
          className="flex min-h-12 min-w-0 items-center gap-2 rounded-lg no-underline sm:gap-3"
          aria-label={`${brand.line1} ${brand.line2}, accueil`}
        >
          <img src={logoUrl} alt="" width={48} height={48} className="size-10 shrink-0 sm:size-12" />
          {/* Large text on a phone (under 20 rem): the logo alone, the link's name says the brand. */}
          <span className="flex min-w-0 flex-col text-[0.9375rem] leading-tight min-[360px]:text-base sm:text-lg @max-[20rem]/header:hidden">
            <span className="font-bold text-primary-strong">{brand.line1}</span>
            <span className="flex items-center gap-2 font-semibold text-ink">
              {brand.line2}
              {/* Under 25 rem (400 px at normal text size) the header's two telephone buttons need its room: the footer still says where the business is. */}
              <Tooltip content="Entreprise de Suisse romande">
                <span role="img" aria-label="Suisse" className="inline-flex @max-[25rem]/header:hidden">
                  <SwissFlag className="size-4 sm:size-5" />
                </span>
              </Tooltip>
            </span>
          </span>
        </Link>

        <nav aria-label="Navigation principale" className="hidden items-center gap-1 lg:flex">
          {navItems.map((item) => (
            <a
              key={item.section}
              href={navHref(item, pathname)}
              className="inline-flex min-h-12 items-center rounded-lg px-3 font-semibold text-ink no-underline hover:bg-primary-soft hover:text-primary-strong"
            >
              {item.label}
            </a>
          ))}
          <ContactDialogLink className={cn(buttonVariants(), "ml-2")}>{words.contactLabel}</ContactDialogLink>
          {/* From 1280 px; narrower, the icon beside the navigation stands for it (cn does not merge classes). */}
          <span className="ml-2 hidden xl:block">
            <Link to={words.callback.href} className={buttonVariants({ variant: "outline" })}>
              {words.callback.label}
            </Link>
          </span>
        </nav>

        <PhoneRevealForm
          onReveal={revealPhone}
          // Large text on a phone (under 20 rem): in the menu, with the callback request.
          className="ml-auto shrink-0 lg:hidden @max-[20rem]/header:hidden"
        >
          <button
            type="submit"
            aria-expanded={hydrated ? phoneShown : undefined}
            aria-controls={hydrated ? PHONE_ID : undefined}
            className={buttonVariants({ variant: "outline", size: "compact" })}
          >
            <Phone aria-hidden="true" className="size-6" />
            <span className="sr-only @min-[25rem]/header:not-sr-only">Appeler</span>
          </button>
        </PhoneRevealForm>
        {/* Phones and narrow screens: the callback request one tap away, beside the menu (issue 23). */}
        <Link
          to={words.callback.href}
          aria-label={words.callback.label}
          // Under 22.5 rem (360 px at normal text size) three buttons would cover the brand: the menu and the footer carry it there.
          className={cn(
            buttonVariants({ variant: "outline", size: "compact" }),
            "shrink-0 xl:hidden @max-[22.5rem]/header:hidden",
          )}
        >
          <PhoneIncoming aria-hidden="true" className="size-6" />
          <span className="sr-only @min-[25rem]/header:max-lg:not-sr-only">{words.callback.short}</span>
        </Link>

        {hydrated ? (
          <button
            ref={buttonRef}
            type="button"
            aria-expanded={open}
            aria-controls={MENU_ID}
            onClick={() => {
              setPhoneOn(null);
              setOpen(!open);
            }}
            className={cn(buttonVariants({ variant: "outline", size: "compact" }), "shrink-0 lg:hidden")}
          >
            {open ? <X aria-hidden="true" className="size-6" /> : <Menu aria-hidden="true" className="size-6" />}
            <span className="sr-only @min-[25rem]/header:not-sr-only">Menu</span>
          </button>
        ) : (
          <a
            href={`#${MENU_ID}`}
            className={cn(buttonVariants({ variant: "outline", size: "compact" }), "shrink-0 lg:hidden")}
          >
            <Menu aria-hidden="true" className="size-6" />
            <span className="sr-only @min-[25rem]/header:not-sr-only">Menu</span>
          </a>
        )}
      </div>

      {phoneShown ? (
        <div id={PHONE_ID} className="border-t border-line bg-white px-4 py-3 shadow-md lg:hidden">
          <PhoneLink channels={words.channels} linkRef={phoneLinkRef} className="w-full" />
        </div>
      ) : null}

      <nav
        id={MENU_ID}
        aria-label="Menu"
        className={cn(
          "border-t border-line bg-white px-4 pt-2 pb-5 shadow-md lg:hidden",
          // Large text: the menu is taller than the screen, and scrolls under the bar (5 rem there).
          "@max-[20rem]/header:max-h-[calc(100dvh-5rem-1px)] @max-[20rem]/header:overflow-y-auto",
          hydrated ? (open ? "block" : "hidden") : "hidden target:block",
        )}
      >
        <ul className="flex flex-col">
          {navItems.map((item) => (
            <li key={item.section}>
              <a
                href={navHref(item, pathname)}
                onClick={closeAfterClick}
                className="flex min-h-12 items-center rounded-lg px-3 text-xl font-semibold text-ink no-underline hover:bg-primary-soft"
              >
                {item.label}
              </a>
            </li>
          ))}
        </ul>
        {/* The menu closes first and its button takes the focus: the dialog gives it back there. */}
        <ContactDialogLink
          onClick={closeAfterClick}
          className={cn(buttonVariants({ size: "large", leading: "text" }), "mt-3 w-full", LARGE_TEXT_PADDING)}
        >
          {words.contactLabel}
        </ContactDialogLink>
        <Link
          to={words.callback.href}
          onClick={closeAfterClick}
          className={cn(
            buttonVariants({ variant: "outline", size: "large", leading: "text" }),
            "mt-3 w-full",
            LARGE_TEXT_PADDING,
          )}
        >
          {words.callback.label}
        </Link>
        {/* Large text on a phone (under 20 rem): the bar's "Appeler", under the callback request. */}
        <PhoneRevealForm onReveal={revealPhone} className="mt-3 hidden @max-[20rem]/header:block">
          <button
            type="submit"
            aria-expanded={hydrated ? phoneShown : undefined}
            aria-controls={hydrated ? PHONE_ID : undefined}
            className={cn(
              buttonVariants({ variant: "outline", size: "large", leading: "text" }),
              "w-full",
              LARGE_TEXT_PADDING,
            )}
          >
            Appeler
          </button>
        </PhoneRevealForm>
      </nav>
    </header>
  );
}
