/** A list with a check mark before each item (service features, course topics). */
import { Check } from "lucide-react";
import { cn } from "~/utils/cn";

export function CheckList({ items, markClassName }: { items: readonly string[]; markClassName: string }) {
  return (
    <ul className="mt-4 space-y-2">
      {items.map((item) => (
        <li key={item} className="flex gap-2">
          <Check aria-hidden="true" className={cn("mt-1 size-5 shrink-0", markClassName)} />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
