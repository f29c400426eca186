/**
 * `<Pager>`: the links under a paged list (« Précédente », the page numbers
 * around the current one, « Suivante »), plain links that keep the list's
 * other query parameters (`search`, e.g. `?statut=nouveau&q=dupont`) and
 * work without JavaScript; nothing when the list has one page. Wraps onto
 * several lines at 320 px.
 */
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { pageHref, pagesAround } from "./pages";

/** `label`: what the navigation is called for a screen reader (« Pages des demandes »). */
export function Pager({
  pathname,
  search,
  page,
  pages,
  label,
}: {
  pathname: string;
  search: string;
  page: number;
  pages: number;
  label: string;
}) {
  if (pages <= 1) return null;
  const href = (number: number) => pageHref(pathname, search, number);
  return (
    <nav aria-label={label} className="mt-6 flex flex-wrap items-center gap-2">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className={buttonVariants({ variant: "outline", size: "compact" })}>
          Précédente
        </Link>
      ) : null}
      {pagesAround(page, pages).map((number, index) =>
        number === null ? (
          <span key={`gap-${index}`} aria-hidden="true" className="px-1 text-lg text-muted">
            …
          </span>
        ) : (
          <Link
            key={number}
            to={href(number)}
            aria-current={number === page ? "page" : undefined}
            aria-label={`Page ${number}`}
            className={buttonVariants({ variant: number === page ? "primary" : "ghost", size: "compact" })}
          >
            {number}
          </Link>
        ),
      )}
      {page < pages ? (
        <Link to={href(page + 1)} rel="next" className={buttonVariants({ variant: "outline", size: "compact" })}>
          Suivante
        </Link>
      ) : null}
    </nav>
  );
}
