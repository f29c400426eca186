/**
 * A line of the registration page (`/cours/inscription/{token}`) for a
 * registration made by a relative: who registered whom, and who received
 * the confirmation by e-mail (or that nobody did, with what to do instead).
 */
export function RelativeBookingNote({
  registration,
}: {
  registration: {
    booker: string | null;
    attendee: string;
    mailedTo: { address: string; relative: boolean }[];
  };
}) {
  const to = registration.mailedTo.map(({ address, relative }) =>
    relative ? `à ${address} (${registration.booker})` : `à ${address} (${registration.attendee})`,
  );
  return (
    <p className="mt-8 text-xl" data-testid="mailed-to">
      {`${registration.booker} a inscrit ${registration.attendee}. `}
      {to.length
        ? `La confirmation est partie par e-mail ${new Intl.ListFormat("fr", { type: "conjunction" }).format(to)}.`
        : "Aucune confirmation n’est partie par e-mail : imprimez cette page ou notez la date et le lieu."}
    </p>
  );
}
