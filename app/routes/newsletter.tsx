/**
 * `/newsletter`: where the newsletter box leads until subscriptions open.
 * Says so plainly and points to the contact section.
 */
import { buttonVariants } from "~/components/ui/button";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import type { Route } from "./+types/newsletter";

export function loader({ context, request }: Route.LoaderArgs) {
  return {
    meta: pageMeta(context, request, {
      title: "Lettre d’information",
      description: "La lettre d’information mensuelle : inscriptions bientôt ouvertes.",
      noindex: true,
    }),
  };
}

export const meta = loaderMeta;

export default function Newsletter() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold">Lettre d’information</h1>
      <p className="mt-5 text-xl text-muted">
        Merci de votre intérêt ! Les inscriptions à la lettre d’information mensuelle ouvriront très bientôt. Votre
        adresse n’a pas été enregistrée.
      </p>
      <p className="mt-4 text-xl text-muted">
        En attendant, je réponds volontiers à vos questions : écrivez-moi ou appelez-moi.
      </p>
      <a href="/#contact" className={`${buttonVariants({ size: "large" })} mt-8`}>
        Me contacter
      </a>
    </section>
  );
}
