/**
 * The search of a desk list (articles, sessions, quotes): a GET form with
 * one labelled field `q` (it works without JavaScript, and the address can
 * be kept or shared), then the line above the list: « Page 2 sur 14 · 700
 * articles », or with a search « 3 résultats pour « arnaques » » and a link
 * « Tout afficher » back to the whole list.
 */
import { Form, Link } from "react-router";
import { pageSummary, SEARCH_RESULTS, type CountNoun, type ListPage } from "~/components/pages";
import { buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { deskLinkClass } from "./frame";

/**
 * The search form and count of the list at `pathname`: `label` above the field, `hint` inside it,
 * `search` as it was asked, `page` as `readPage` read it, `noun` the count's words without a search.
 */
export function ListSearch({
  pathname,
  label,
  hint,
  search,
  page,
  noun,
}: {
  pathname: string;
  label: string;
  hint: string;
  search: string | undefined;
  page: Omit<ListPage<unknown>, "rows">;
  noun: CountNoun;
}) {
  return (
    <>
      <Form
        method="get"
        action={pathname}
        role="search"
        className="mt-6 grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end"
      >
        <div>
          <Label htmlFor="q">{label}</Label>
          <Input id="q" name="q" type="search" defaultValue={search ?? ""} placeholder={hint} className="mt-2" />
        </div>
        <button type="submit" className={buttonVariants()}>
          Rechercher
        </button>
      </Form>
      <p className="mt-4 flex flex-wrap items-center gap-4 text-lg">
        <span>{search ? `${pageSummary(page, SEARCH_RESULTS)} pour « ${search} »` : pageSummary(page, noun)}</span>
        {search ? (
          <Link to={pathname} className={deskLinkClass}>
            Tout afficher
          </Link>
        ) : null}
      </p>
    </>
  );
}
