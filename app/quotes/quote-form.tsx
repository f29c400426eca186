/**
 * The desk's form of a new quote (and of a draft edited): the invoice form's organisation,
 * address, lines and dates (app/invoices/invoice-form.tsx; « Valable
 * jusqu’au » for the second date) and the group's fieldset: its size, the
 * course or workshop, the date and time, the duration and the place. A
 * plain post, without JavaScript too.
 */
import { InvoiceForm } from "~/invoices/invoice-form";
import { Select } from "~/components/ui/select";

const WORDS = { issuedOn: "Date du devis", dueOn: "Valable jusqu’au", submit: "Créer le devis" };

/** `submit`: the button's words (« Créer le devis » unless a draft is edited). */
export function QuoteForm({
  values,
  errors,
  lines,
  courses,
  submit = WORDS.submit,
}: {
  values: Record<string, string>;
  errors?: Record<string, string>;
  lines: number;
  /** The catalogue's courses: id and title. */
  courses: { id: string; title: string }[];
  submit?: string;
}) {
  return (
    <InvoiceForm
      values={values}
      errors={errors}
      lines={lines}
      words={{ ...WORDS, submit }}
      extra={(text) => (
        <fieldset className="grid gap-5">
          <legend className="text-2xl font-bold">Le groupe et la séance</legend>
          {text(
            "courseId",
            "Cours ou atelier",
            {},
            <Select id="invoice-courseId" name="courseId" defaultValue={values.courseId ?? ""}>
              <option value="">Choisissez…</option>
              {courses.map((course) => (
                <option key={course.id} value={course.id}>
                  {course.title}
                </option>
              ))}
            </Select>,
          )}
          <div className="grid gap-5 sm:grid-cols-3">
            {text("groupSize", "Personnes (facultatif)", { inputMode: "numeric", autoComplete: "off" })}
            {text("sessionDate", "Date de la séance", { type: "date" })}
            {text("sessionTime", "Heure de début", { type: "time" })}
          </div>
          {text("durationMinutes", "Durée en minutes", { inputMode: "numeric", autoComplete: "off" })}
          {text("placeName", "Lieu (par exemple « Salle communale »)", { autoComplete: "off" })}
          {text("placeAddress", "Adresse du lieu", { autoComplete: "off" })}
        </fieldset>
      )}
    />
  );
}
