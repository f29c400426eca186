/** A home-page section: anchor id, h2 title, optional introduction, content. */
import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

export function Section({
  id,
  title,
  intro,
  children,
  className,
}: {
  id: string;
  title: string;
  intro?: string;
  children: ReactNode;
  className?: string;
}) {
  const headingId = `${id}-titre`;
  return (
    <section id={id} aria-labelledby={headingId} className={cn("py-16 sm:py-20", className)}>
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <div className="mx-auto max-w-3xl text-center">
          <h2 id={headingId} className="text-3xl font-bold text-ink sm:text-4xl">
            {title}
          </h2>
          {intro ? <p className="mt-4 text-xl text-muted">{intro}</p> : null}
        </div>
        <div className="mt-10 sm:mt-12">{children}</div>
      </div>
    </section>
  );
}
