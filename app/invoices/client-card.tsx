/**
 * The desk's block of whom a paper is for, on an invoice's and a quote's
 * page: a heading, the postal address line by line, the e-mail and the
 * telephone, the contact request it was made from (a link), and what a
 * page adds below (`children`, e.g. the registration it was made from).
 */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { deskLinkClass } from "~/desk/frame";

export function ClientCard({
  id,
  heading,
  address,
  email,
  phone,
  contactId,
  children,
}: {
  /** The heading's id (the section is labelled by it). */
  id: string;
  heading: string;
  address: readonly string[];
  email: string | null;
  phone: string | null;
  contactId: number | null;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="text-2xl font-bold">
        {heading}
      </h2>
      <address className="mt-2 text-lg break-words not-italic">
        {address.map((line) => (
          <span key={line} className="block">
            {line}
          </span>
        ))}
      </address>
      <p className="mt-2 text-lg break-words">
        {email ?? "Sans e-mail"}
        {phone ? ` · ${phone}` : ""}
      </p>
      {children}
      {contactId ? (
        <p className="mt-1 text-lg">
          D’après la{" "}
          <Link to={`/admin/demandes/${contactId}`} className={deskLinkClass}>
            demande n° {contactId}
          </Link>
          .
        </p>
      ) : null}
    </section>
  );
}
