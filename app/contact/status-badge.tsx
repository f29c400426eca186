/**
 * A request's status as a coloured label (text and border, never colour
 * alone), and the statuses as a select's options.
 */
import { REQUEST_STATUSES, statusLabel } from "./requests";

/** One `<option>` per status, in the order of the work. */
export function StatusOptions() {
  return REQUEST_STATUSES.map((status) => (
    <option key={status.value} value={status.value}>
      {status.label}
    </option>
  ));
}

const statusTone: Record<string, string> = {
  nouveau: "border-accent bg-accent text-white",
  "a-rappeler": "border-amber-700 bg-amber-100 text-amber-950",
  "en-cours": "border-primary bg-primary-soft text-primary",
  termine: "border-gray-500 bg-gray-100 text-gray-800",
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-block rounded-full border-2 px-3 py-0.5 text-base font-semibold ${statusTone[status] ?? ""}`}
    >
      {statusLabel(status)}
    </span>
  );
}
