/** The line that leads to « Envoi des e-mails » from Réglages and from the mails not delivered. */
import { Link } from "react-router";
import { deskLinkClass } from "~/desk/frame";
import { SENDER_PATH } from "./path";

/** `lead` (a question, typeset), then the link « Vérifier l’envoi des e-mails ». */
export function SenderPageLine({ lead }: { lead: string }) {
  return (
    <p className="mt-2 max-w-3xl text-lg">
      {lead}{" "}
      <Link to={SENDER_PATH} className={deskLinkClass}>
        Vérifier l’envoi des e-mails
      </Link>
    </p>
  );
}
