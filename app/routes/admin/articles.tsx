/**
 * `/admin/articles`: the blog in the desk: the articles (brouillon,
 * programmé, publié), the most recently changed first, 50 a page
 * (`?page=`), a search by a part of the title (`?q=`, any case), and a new
 * one from its title.
 */
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { articleState, articlesPage, createArticle, publicationMoment } from "~/blog/desk.server";
import { askedPage, askedSearch } from "~/components/pages";
import { Pager } from "~/components/pager";
import { ARTICLE_LIMITS } from "~/blog/fields";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { getSiteSettings } from "~/settings/site.server";
import { audit } from "~/desk/audit.server";
import { deskLinkClass } from "~/desk/frame";
import { ListSearch } from "~/desk/list-search";
import { deskHandle, deskMeta } from "~/desk/meta";
import { readFormData } from "~/guards/body.server";
import { formatDateTime } from "~/utils/format";
import type { Route } from "./+types/articles";
import { dbContext, loggerContext, ownerContext } from "~/context.server";

export const handle = deskHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const search = askedSearch(url.searchParams);
  const { rows, ...page } = await articlesPage(context.get(dbContext), askedPage(url.searchParams), search);
  return {
    search,
    page,
    query: url.search,
    articles: rows.map((row) => {
      const state = articleState(row);
      return {
        id: row.id,
        title: row.title,
        slug: row.slug,
        public: state.kind === "published",
        state:
          state.kind === "draft"
            ? `Brouillon, modifié le ${formatDateTime(row.updatedAt)}`
            : state.kind === "scheduled"
              ? `Programmé pour le ${publicationMoment(row)}`
              : `Publié le ${publicationMoment(row)}`,
      };
    }),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Articles du blog", matches);

export async function action({ request, context }: Route.ActionArgs) {
  const owner = context.get(ownerContext);
  const form = await readFormData(request, 8 * 1024);
  const title = String(form.get("title") ?? "").trim();
  if (!title || title.length > ARTICLE_LIMITS.title) {
    return data(
      { error: `Donnez un titre à l’article (au plus ${ARTICLE_LIMITS.title} caractères).` },
      { status: 400 },
    );
  }
  const db = context.get(dbContext);
  const id = await createArticle(db, { title, author: (await getSiteSettings(context)).identity.name });
  await audit(
    db,
    { actor: owner.userId, action: "article-created", details: { article: id } },
    context.get(loggerContext),
  );
  return redirect(`/admin/articles/${id}`, { status: 303 });
}

export default function Articles() {
  const { articles, page, query, search } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">Articles du blog</h1>
      <section aria-labelledby="new-article" className="mt-6 rounded-2xl border-2 border-gray-200 bg-white p-4">
        <h2 id="new-article" className="text-2xl font-bold">
          Nouvel article
        </h2>
        <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
          <div className="min-w-0 flex-1 basis-64">
            <Label htmlFor="title">Titre de l’article</Label>
            <Input
              id="title"
              name="title"
              required
              maxLength={ARTICLE_LIMITS.title}
              className="mt-2"
              aria-invalid={answer?.error ? true : undefined}
              aria-describedby={answer?.error ? "title-error" : undefined}
            />
          </div>
          <Button type="submit">Écrire cet article</Button>
        </Form>
        {answer?.error ? (
          <p id="title-error" className="mt-2 text-lg font-semibold text-red-800">
            {answer.error}
          </p>
        ) : null}
      </section>
      <h2 className="mt-10 text-2xl font-bold">Les articles</h2>
      {articles.length === 0 && !search ? (
        <p className="mt-2 text-lg text-muted">Aucun article pour l’instant.</p>
      ) : (
        <>
          <ListSearch
            pathname="/admin/articles"
            label="Rechercher un article"
            hint="Un mot du titre"
            search={search}
            page={page}
            noun={{ one: "article", many: "articles", none: "Aucun article" }}
          />
          <ul className="mt-4 space-y-3">
            {articles.map((article) => (
              <li key={article.id} className="rounded-2xl border-2 border-gray-200 bg-white p-4">
                <Link to={`/admin/articles/${article.id}`} className={`text-xl ${deskLinkClass}`}>
                  {article.title}
                </Link>
                <p className="mt-1 text-lg text-muted">
                  {article.state}
                  {article.public ? (
                    <>
                      {" · "}
                      <a href={`/blog/${article.slug}`} className={deskLinkClass}>
                        Voir sur le site
                      </a>
                    </>
                  ) : null}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
      <Pager pathname="/admin/articles" search={query} label="Pages des articles" {...page} />
    </div>
  );
}
