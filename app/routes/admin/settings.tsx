/**
 * `/admin/reglages` (Réglages, issue 21 item 1, decision 024): the owner's
 * details, opening hours, zones, prices and legal settings, in five forms
 * (one per section, each with its own « Enregistrer »), usable on a phone
 * and without JavaScript. A wrong value gets its French message beside its
 * field, the section's values stay as typed, and nothing is saved; a saved
 * section shows on every page, in the JSON-LD, the legal pages and the mails
 * at once (the render cache of every process drops its pages). A field that
 * still holds a value of the site's examples says so. Audited (the section's
 * name only, never a value).
 */
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { z } from "zod";
import { Button } from "~/components/ui/button";
import { audit } from "~/desk/audit.server";
import { Notice, TextField } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { findPlaceholders } from "~/settings/placeholders.server";
import { BodyTooLargeError, readFormData } from "~/guards/body.server";
import {
  formSchemas,
  formValuesOf,
  SETTINGS_FIELDS,
  SETTINGS_SECTIONS,
  type SettingsField,
  type SettingsSection,
} from "~/settings/schema";
import { readSiteSettings, saveSettingsSection } from "~/settings/site.server";
import type { Route } from "./+types/settings";
import { SenderPageLine } from "./sender/link";
import { dbContext, loggerContext, ownerContext } from "~/context.server";

export const handle = deskHandle;

/** Each section's title and what it changes on the site. */
const SECTIONS: Record<SettingsSection, { title: string; intro: string }> = {
  identity: {
    title: "Vos coordonnées",
    intro:
      "Votre nom, votre raison de commerce et votre adresse paraissent dans les mentions légales, la politique de confidentialité et le pied des e-mails\u202f; votre téléphone, votre e-mail et WhatsApp sur chaque page, derrière «\u00a0Révéler\u00a0».",
  },
  hours: {
    title: "Horaires d’ouverture",
    intro:
      "Laissez les deux heures vides pour un jour où vous ne travaillez pas\u00a0: le site écrit alors «\u00a0Fermé\u00a0».",
  },
  zones: {
    title: "Zones d’intervention",
    intro: "Les localités que vous citez pour chaque canton, sur la page d’accueil et dans les questions fréquentes.",
  },
  prices: {
    title: "Vos tarifs",
    intro:
      "Les prix des trois services, sur la page d’accueil, dans les questions fréquentes et pour les moteurs de recherche.",
  },
  payment: {
    title: "Paiement des factures",
    intro:
      "Le compte que vos factures indiquent, avec leur bulletin de versement QR. Un QR-IBAN donne à chaque facture une référence QR\u202f; un IBAN ordinaire, une référence créancier.",
  },
  courses: {
    title: "Cours et liste d’attente",
    intro:
      "Quand une place se libère, le site la propose à la première personne de la liste d’attente et la lui garde ce temps-là. Sans réponse, elle va à la suivante. Le délai d’annulation paraît sur la page du cours, dans les e-mails et dans le fichier d’agenda.",
  },
  legal: {
    title: "Mentions légales et confidentialité",
    intro:
      "Vos prestataires et les durées de conservation que la politique de confidentialité annonce. Le site efface lui-même les demandes et les e-mails après ces durées.",
  },
};

/** The body of one section's form: a few kilobytes at most. */
const SETTINGS_BODY_BYTES = 32 * 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = await readSiteSettings(context.get(dbContext), context.get(loggerContext));
  const examples = new Set(findPlaceholders(settings).map((placeholder) => placeholder.href.split("#")[1]));
  const saved = new URL(request.url).searchParams.get("enregistre");
  return {
    saved: SETTINGS_SECTIONS.find((section) => section === saved) ?? null,
    sections: SETTINGS_SECTIONS.map((section) => ({
      section,
      values: formValuesOf(section, settings),
      examples: SETTINGS_FIELDS[section].filter((field) => examples.has(`${section}-${field.name}`)).map((f) => f.name),
    })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Réglages", matches);

type ActionData = { section: SettingsSection; errors: Record<string, string>; values: Record<string, string> };

/** The first message of each field `issues` name, by field name. */
function errorsOf(issues: z.core.$ZodIssue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const name = String(issue.path[0] ?? "");
    if (name && !errors[name]) errors[name] = issue.message;
  }
  return errors;
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = context.get(ownerContext);
  const db = context.get(dbContext);
  let form: FormData;
  try {
    form = await readFormData(request, SETTINGS_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw data(null, { status: 413 });
    throw error;
  }
  const section = SETTINGS_SECTIONS.find((candidate) => candidate === form.get("section"));
  if (!section) throw data(null, { status: 400 });
  const values = Object.fromEntries(
    SETTINGS_FIELDS[section].map((field) => [field.name, String(form.get(`${section}-${field.name}`) ?? "")]),
  );
  const parsed = formSchemas[section].safeParse(values);
  if (!parsed.success) {
    return data<ActionData>({ section, errors: errorsOf(parsed.error.issues), values }, { status: 400 });
  }
  await saveSettingsSection(db, section, parsed.data as never);
  await audit(db, { actor: owner.userId, action: "settings-saved", details: { section } }, context.get(loggerContext));
  return redirect(`/admin/reglages?enregistre=${section}#${section}`, { status: 303 });
}

/** One field of a section's form, its value as stored or as just typed. */
function SettingsInput({
  section,
  field,
  value,
  error,
  example,
}: {
  section: SettingsSection;
  field: SettingsField;
  value: string;
  error?: string;
  example: boolean;
}) {
  const hint =
    field.hint || example ? (
      <>
        {example ? <strong className="text-accent">Encore un exemple du site{"\u00a0"}: à remplacer. </strong> : null}
        {field.hint}
      </>
    ) : undefined;
  return (
    <TextField
      id={`${section}-${field.name}`}
      label={field.optional && field.type !== "time" ? `${field.label} (facultatif)` : field.label}
      hint={hint}
      error={error}
      type={field.type === "number" ? "text" : (field.type ?? "text")}
      inputMode={field.inputMode}
      autoComplete={field.autoComplete ?? "off"}
      defaultValue={value}
      required={!field.optional && field.type !== "time"}
    />
  );
}

export default function Settings() {
  const { saved, sections } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">Réglages</h1>
      <p className="mt-2 max-w-3xl text-lg">
        Ce que vous changez ici paraît tout de suite sur le site, sans rien redémarrer. Chaque partie a son bouton «
        Enregistrer ».
      </p>
      <SenderPageLine lead={"Vos e-mails arrivent-ils bien\u00a0?"} />
      <nav aria-label="Parties des réglages" className="mt-4">
        <ul className="flex flex-wrap gap-x-6 gap-y-2 text-lg">
          {sections.map(({ section }) => (
            <li key={section}>
              <a href={`#${section}`} className="text-primary underline underline-offset-4">
                {SECTIONS[section].title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {sections.map(({ section, values, examples }) => {
        const failed = answer?.section === section ? answer : undefined;
        const shown = failed?.values ?? values;
        let lastGroup: string | undefined;
        return (
          <section
            key={section}
            id={section}
            aria-labelledby={`${section}-title`}
            className="mt-8 scroll-mt-4 rounded-2xl border-2 border-gray-200 bg-white p-4 sm:p-6"
          >
            <h2 id={`${section}-title`} className="text-2xl font-bold">
              {SECTIONS[section].title}
            </h2>
            <p className="mt-1 text-lg text-muted">{SECTIONS[section].intro}</p>
            {saved === section ? (
              <Notice tone="status" className="mt-4">
                Enregistré. Le site affiche déjà ces valeurs.{" "}
                <Link to="/" className="underline underline-offset-4">
                  Voir le site
                </Link>
              </Notice>
            ) : null}
            {failed ? (
              <Notice tone="alert" className="mt-4">
                Rien n’a été enregistré{"\u00a0"}: corrigez{" "}
                {Object.keys(failed.errors).length > 1 ? "les champs" : "le champ"} signalé
                {Object.keys(failed.errors).length > 1 ? "s" : ""} en rouge.
              </Notice>
            ) : null}
            {/* Drawn anew when the values change (a save), so that each field shows them as stored. */}
            <Form key={JSON.stringify(shown)} method="post" className="mt-4 max-w-2xl space-y-5" noValidate>
              <input type="hidden" name="section" value={section} />
              {SETTINGS_FIELDS[section].map((field) => {
                const heading =
                  field.group && field.group !== lastGroup ? (
                    <h3 className="pt-2 text-xl font-semibold">{field.group}</h3>
                  ) : null;
                lastGroup = field.group;
                return (
                  <div key={field.name} className="space-y-5">
                    {heading}
                    <SettingsInput
                      section={section}
                      field={field}
                      value={shown[field.name] ?? ""}
                      error={failed?.errors[field.name]}
                      example={examples.includes(field.name)}
                    />
                  </div>
                );
              })}
              <Button type="submit">Enregistrer</Button>
            </Form>
          </section>
        );
      })}
    </div>
  );
}
