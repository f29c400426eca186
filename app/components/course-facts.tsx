/**
 * A course's duration, level and group size with their icons (labels for
 * screen readers), as a description list: on the home page's course cards
 * and on `/cours/{slug}`.
 */
import { CalendarClock, GraduationCap, Users } from "lucide-react";
import { cn } from "~/utils/cn";

export function CourseFacts({
  course,
  className,
}: {
  course: { duration: string; level: string; groupSize: string };
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
          <dt>
            <Icon aria-hidden="true" className="size-5" />
            <span className="sr-only">{`${label}\u00a0:`}</span>
          </dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
