/**
 * The series form's own fields (the desk's `/admin/cours`, inside
 * `SessionForm`): "Chaque semaine" or "Dates choisies une à une" (two
 * radios), the number of lessons (empty: the course's, e.g. 4 for
 * "4 séances de 1h30"), and the other dates picked one by one (plain date
 * inputs, used only with "Dates choisies"). A plain post, without
 * JavaScript too; the server's French message sits under its field.
 */
import { FieldError } from "~/components/form-parts";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { RadioChoices } from "~/desk/form-parts";

/** The values shown again after a refused post. */
export interface SeriesFieldValues {
  repeat: string;
  count: string;
  otherDates: string[];
}

/** The series form's extra fields; `slots` date inputs for the dates picked one by one. */
export function SeriesFields({
  values,
  errors = {},
  slots,
}: {
  values: SeriesFieldValues;
  errors?: Partial<Record<"repeat" | "count" | "otherDates", string>>;
  slots: number;
}) {
  return (
    <>
      <fieldset
        className="flex flex-col gap-2"
        aria-invalid={errors.repeat ? true : undefined}
        aria-describedby={errors.repeat ? "series-repeat-error" : undefined}
      >
        <legend className="mb-1 text-lg font-semibold">Les dates suivantes</legend>
        <RadioChoices
          name="repeat"
          choices={[
            ["weekly", "Chaque semaine, le même jour à la même heure"],
            ["picked", "Dates choisies une à une (ci-dessous)"],
          ]}
          checked={values.repeat || "weekly"}
        />
        <FieldError id="series-repeat-error" errors={errors.repeat ? [errors.repeat] : undefined} />
      </fieldset>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="series-count">Nombre de séances</Label>
        <p id="series-count-hint" className="text-lg leading-snug text-muted">
          Laissez vide pour le nombre du cours (par exemple 4 pour « 4 séances de 1h30 »).
        </p>
        <Input
          id="series-count"
          name="count"
          inputMode="numeric"
          defaultValue={values.count}
          className="max-w-32"
          aria-describedby={errors.count ? "series-count-hint series-count-error" : "series-count-hint"}
          aria-invalid={errors.count ? true : undefined}
        />
        <FieldError id="series-count-error" errors={errors.count ? [errors.count] : undefined} />
      </div>
      <fieldset
        className="flex flex-col gap-2"
        aria-invalid={errors.otherDates ? true : undefined}
        aria-describedby={errors.otherDates ? "series-otherDates-error" : undefined}
      >
        <legend className="mb-1 text-lg font-semibold">Dates choisies une à une (après la première)</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          {Array.from({ length: slots }, (_, index) => (
            <div key={index} className="flex min-w-0 flex-col gap-1">
              <Label htmlFor={`series-otherDates-${index}`}>Séance {index + 2}</Label>
              <Input
                id={`series-otherDates-${index}`}
                name="otherDates"
                type="date"
                defaultValue={values.otherDates[index] ?? ""}
              />
            </div>
          ))}
        </div>
        <FieldError id="series-otherDates-error" errors={errors.otherDates ? [errors.otherDates] : undefined} />
      </fieldset>
    </>
  );
}
