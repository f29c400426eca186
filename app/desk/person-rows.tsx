/**
 * The rows of one table of a person's data, each as a list of French
 * labels and values (`PersonTable.fields`): the person page and the
 * printable export show them alike.
 */
export function PersonRowList({ rows }: { rows: readonly (readonly (readonly [string, string])[])[] }) {
  if (rows.length === 0) return <p className="mt-2 text-lg text-muted">Rien d’enregistré.</p>;
  return (
    <ul className="mt-4 space-y-4">
      {rows.map((fields, index) => (
        <li key={index} className="break-inside-avoid">
          <dl className="divide-y-2 divide-gray-100 rounded-2xl border-2 border-gray-200 bg-white">
            {fields.map(([label, value]) => (
              <div key={label} className="grid gap-1 p-3 sm:grid-cols-[12rem_1fr]">
                <dt className="text-lg font-semibold">{label}</dt>
                <dd className="text-lg break-words whitespace-pre-line">{value || "(vide)"}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}
