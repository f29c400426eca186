/**
 * The desk's photo field: a native file input (the phone offers its camera
 * and its photos), limited to JPEG, PNG and WebP, with its label and its
 * French error (`picture-error`). The server checks the content anyway.
 */
import { FieldError } from "~/desk/form-parts";
import { Label } from "~/components/ui/label";

export function PictureFileInput({ error, required = false }: { error?: string; required?: boolean }) {
  return (
    <div>
      <Label htmlFor="picture">Photo (JPEG, PNG ou WebP, 15 Mo au plus)</Label>
      <input
        id="picture"
        name="picture"
        type="file"
        accept="image/jpeg,image/png,image/webp"
        required={required}
        className="mt-2 block w-full text-lg file:mr-4 file:min-h-12 file:rounded-xl file:border-2 file:border-primary file:bg-white file:px-4 file:font-semibold file:text-primary"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "picture-error" : undefined}
      />
      <FieldError id="picture-error" message={error} />
    </div>
  );
}
