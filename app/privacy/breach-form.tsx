/**
 * The desk's form of a breach of data security (the breach log, LPD art. 24
 * and OPDo art. 15): when it was discovered and when it happened, what
 * happened, the data and people concerned (categories and number, never a
 * name), the risk, the measures, and whether and when the FDPIC (PFPDT)
 * and the people were told, with the FDPIC's reporting page linked. A
 * plain post (works without JavaScript); each French message sits under
 * its field (`aria-invalid`, `aria-describedby`).
 */
import { Form } from "react-router";
import { Field, FieldError, hintId } from "~/components/form-parts";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { deskLinkClass } from "~/desk/frame";
import { RadioChoices } from "~/desk/form-parts";
import { isIsoDate } from "~/utils/format";

/**
 * The FDPIC's page for reporting a breach (« DataBreach »), which opens its
 * online form; found in its stored English version (decision 046).
 */
export const FDPIC_BREACH_PAGE = "https://www.edoeb.admin.ch/edoeb/en/home/meldeportale/databreach.html";

/** The link to the FDPIC's reporting page, opening in a new tab. */
export function FdpicLink() {
  return (
    <a href={FDPIC_BREACH_PAGE} target="_blank" rel="noreferrer" className={deskLinkClass}>
      le formulaire d’annonce en ligne du PFPDT (DataBreach)
      <span className="sr-only"> (ouvre un nouvel onglet)</span>
    </a>
  );
}

export function BreachForm({
  values,
  errors = {},
  submitLabel,
}: {
  values: Record<string, string>;
  errors?: Record<string, string>;
  submitLabel: string;
}) {
  const field = (name: string) => ({
    id: `breach-${name}`,
    errorId: `breach-${name}-error`,
    errors: errors[name] ? [errors[name]] : undefined,
  });
  const described = (name: string, hint?: boolean) => {
    const ids = [hint ? hintId(field(name)) : "", errors[name] ? field(name).errorId : ""].filter(Boolean);
    return { "aria-invalid": errors[name] ? true : undefined, "aria-describedby": ids.join(" ") || undefined };
  };
  const date = (name: string, label: string, hint?: string) => (
    <Field field={field(name)} label={label} hint={hint}>
      <Input
        id={field(name).id}
        name={name}
        type="date"
        // A date field holds an ISO date or nothing (a browser never posts anything else; a hand-made post might).
        defaultValue={isIsoDate(values[name] ?? "") ? values[name] : ""}
        className="max-w-xs"
        {...described(name, !!hint)}
      />
    </Field>
  );
  const long = (name: string, label: string, hint?: string) => (
    <Field field={field(name)} label={label} hint={hint}>
      <Textarea id={field(name).id} name={name} defaultValue={values[name] ?? ""} {...described(name, !!hint)} />
    </Field>
  );
  return (
    <Form method="post" noValidate className="mt-6 grid gap-6 rounded-2xl border-2 border-gray-200 bg-white p-4 sm:p-5">
      <fieldset className="grid gap-5">
        <legend className="text-2xl font-bold">Quand</legend>
        {date("discoveredOn", "Découverte le")}
        {date("occurredOn", "Survenue le (facultatif)", "Laissez vide si vous ne le savez pas.")}
      </fieldset>
      <fieldset className="grid gap-5">
        <legend className="text-2xl font-bold">Ce qui s’est passé</legend>
        {long(
          "whatHappened",
          "Description",
          "Par exemple : ordinateur portable volé, e-mail envoyé à la mauvaise personne, mot de passe découvert.",
        )}
        {long(
          "dataConcerned",
          "Données concernées",
          "Les catégories, sans nom : par exemple « noms et numéros de téléphone ».",
        )}
        {long(
          "peopleConcerned",
          "Personnes concernées",
          "Les catégories, sans nom : par exemple « participants au cours du 12 mars ».",
        )}
        <Field
          field={field("peopleCount")}
          label="Nombre de personnes (facultatif)"
          hint="Laissez vide s’il n’est pas connu."
        >
          <Input
            id={field("peopleCount").id}
            name="peopleCount"
            inputMode="numeric"
            autoComplete="off"
            defaultValue={values.peopleCount ?? ""}
            className="max-w-xs"
            {...described("peopleCount", true)}
          />
        </Field>
      </fieldset>
      <fieldset className="grid gap-2" aria-describedby={described("risk", true)["aria-describedby"]}>
        <legend className="text-2xl font-bold">Risque pour les personnes</legend>
        <p id={hintId(field("risk"))} className="text-lg text-muted">
          Un risque élevé pour leur personnalité ou leurs droits (par exemple des données qui permettent une
          escroquerie) doit être annoncé au PFPDT dans les meilleurs délais (art. 24 LPD).
        </p>
        <RadioChoices
          name="risk"
          checked={values.risk ?? ""}
          choices={[
            ["faible", "Risque faible : pas d’annonce obligatoire"],
            ["eleve", "Risque élevé : à annoncer au PFPDT"],
          ]}
        />
        <FieldError id={field("risk").errorId} errors={field("risk").errors} />
      </fieldset>
      <fieldset className="grid gap-5">
        <legend className="sr-only">Évaluation et mesures</legend>
        {long("riskAssessment", "Évaluation du risque", "Pourquoi le risque est faible ou élevé pour les personnes.")}
        {long("measures", "Mesures prises ou prévues", "Pour corriger le problème et en limiter les suites.")}
      </fieldset>
      <fieldset className="grid gap-5">
        <legend className="text-2xl font-bold">Annonces</legend>
        <p className="text-lg">
          Pour annoncer une violation au Préposé fédéral à la protection des données et à la transparence (PFPDT),
          utilisez <FdpicLink />, puis notez ici la date de l’annonce.
        </p>
        {date("fdpicToldOn", "Annoncée au PFPDT le (facultatif)", "Laissez vide si elle ne lui a pas été annoncée.")}
        {date(
          "peopleToldOn",
          "Personnes concernées informées le (facultatif)",
          "À faire quand c’est nécessaire pour leur protection, ou si le PFPDT le demande. Laissez vide sinon.",
        )}
      </fieldset>
      <p>
        <Button type="submit">{submitLabel}</Button>
      </p>
    </Form>
  );
}
