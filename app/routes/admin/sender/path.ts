/** The desk's « Envoi des e-mails » page: Réglages and the mails not delivered link here. */
export const SENDER_PATH = "/admin/envoi";
