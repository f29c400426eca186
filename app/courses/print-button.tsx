/**
 * "Imprimer": opens the browser's print dialog. Shown only once the page is
 * hydrated (without JavaScript the button would do nothing; the browser's
 * own print command works), and never on paper.
 */
import { Printer } from "lucide-react";
import { Button } from "~/components/ui/button";
import { useHydrated } from "~/utils/use-hydrated";

export function PrintButton() {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Button type="button" className="mt-4 print:hidden" onClick={() => window.print()}>
      <Printer aria-hidden="true" className="size-6" />
      Imprimer
    </Button>
  );
}
