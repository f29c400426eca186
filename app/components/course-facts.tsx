/**
 * A course's duration, level and group size with their icons, as a
 * description list: on the home page's course cards (labels for screen
 * readers only) and on `/cours/{slug}` (labels shown).
 */
import { CalendarClock, GraduationCap, Users } from "lucide-react";
import { cn } from "~/utils/cn";

export function CourseFacts({
  course,
  showLabels = false,
  className,
}: {
  course: { duration: string; level: string; groupSize: string };
  /** Shows "Durée :", "Niveau :", "Taille du groupe :" beside the icons. */
  showLabels?: boolean;
  className?: string;
}) {
  return (
    <dl className={cn("grid gap-2 rounded-2xl p-4", className)}>
      {[
        { Icon: CalendarClock, label: "Durée", value: course.duration },
        { Icon: GraduationCap, label: "Niveau", value: course.level },
        { Icon: Users, label: "Taille du groupe", value: course.groupSize },
      ].map(({ Icon, label, value }) => (
        <div key={label} className="flex items-center gap-2">
          <dt className={showLabels ? "flex items-center gap-2 font-semibold" : undefined}>
            <Icon aria-hidden="true" className="size-5" />
            <span className={showLabels ? undefined : "sr-only"}>{`${label}\u00a0:`}</span>
          </dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
