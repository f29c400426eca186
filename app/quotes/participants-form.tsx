/**
 * The list of a group's participants to fill (the organisation on its link
 * page, the owner in the desk): one field a name (`name-0`, `name-1`…, as
 * many as `fields`), filled with the names already given, and one button
 * that posts `intent=participants`. A plain form: it works without
 * JavaScript; empty fields are left out.
 */
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

export function ParticipantsForm({ names, fields }: { names: readonly string[]; fields: number }) {
  return (
    <Form method="post" className="mt-4 grid gap-4">
      <input type="hidden" name="intent" value="participants" />
      <ol className="grid gap-3 sm:grid-cols-2">
        {Array.from({ length: fields }, (_, index) => (
          <li key={index} className="flex min-w-0 flex-col gap-1.5">
            <Label htmlFor={`participant-${index}`}>Participant {index + 1}</Label>
            <Input
              id={`participant-${index}`}
              name={`name-${index}`}
              defaultValue={names[index] ?? ""}
              autoComplete="off"
              maxLength={100}
            />
          </li>
        ))}
      </ol>
      <p className="text-lg text-muted">Prénom et nom ; laissez vides les lignes en trop.</p>
      <Button type="submit" className="sm:justify-self-start">
        Enregistrer la liste
      </Button>
    </Form>
  );
}
