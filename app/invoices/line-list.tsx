/**
 * The lines of an invoice or a quote (app/quotes/) on its desk page, one
 * card each (« 1.5 × CHF 95.– = CHF 142.50 »), then the total: they read
 * at 375 px.
 */
export function LineList({
  lines,
  total,
}: {
  lines: readonly { label: string; quantity: string; unit: string; amount: string }[];
  total: string;
}) {
  return (
    <>
      <ul className="mt-3 grid gap-2">
        {lines.map((line, index) => (
          <li key={index} className="rounded-xl border-2 border-gray-200 bg-white p-3 text-lg">
            <p className="break-words">{line.label}</p>
            <p>
              {line.quantity} × {line.unit} = <strong>{line.amount}</strong>
            </p>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xl">
        Total : <strong>{total}</strong>
      </p>
    </>
  );
}
