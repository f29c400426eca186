/**
 * What a failed send means (decision 042): `refusalOf(error)` reads
 * nodemailer's error (its `responseCode`, `command`, `code`) and says
 * whether the refusal is permanent (a 5xx reply to RCPT TO or DATA: this
 * address or this message will never be accepted) or temporary (a 4xx
 * reply, a connection refused or cut, a timeout, and a 5xx at any other
 * step: the sender's own set-up, such as a refused login, which the
 * operator fixes for every mail at once). `refusalReason(stage, code)`
 * says it to the owner in plain French.
 */

/**
 * Where the refusal came, as stored in `outbox.error_stage`; "bounce" and
 * "complaint" come later, from the provider (provider-events.server.ts).
 */
export type RefusalStage =
  "recipient" | "message" | "sender" | "connection" | "expired" | "other" | "bounce" | "complaint";

/** A failed send, as the outbox stores it. */
export interface Refusal {
  /** True: marked failed at once; false: retried after the back-off. */
  permanent: boolean;
  stage: RefusalStage;
  /** The SMTP reply code (550, 451…), or null when the server gave none (a connection error). */
  code: number | null;
}

/** The shape of nodemailer's errors that matters here (all optional: any thrown value is accepted). */
interface SmtpErrorFields {
  responseCode?: unknown;
  command?: unknown;
  code?: unknown;
  rejectedErrors?: { responseCode?: unknown }[];
}

/** The stage of nodemailer's `command` ("RCPT TO", "DATA", "MAIL FROM", "CONN", "AUTH PLAIN"…) and `code`. */
function stageOf(command: string, code: string): RefusalStage {
  if (command.startsWith("RCPT") || code === "EENVELOPE") return "recipient";
  if (command === "DATA" || code === "EMESSAGE") return "message";
  if (command.startsWith("MAIL") || command.startsWith("AUTH") || code === "EAUTH") return "sender";
  if (command === "CONN" || ["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ETLS"].includes(code)) return "connection";
  return "other";
}

/**
 * What `error` (thrown by a transport's `sendMail`) means. A reply code
 * comes from `responseCode`, or from the first of `rejectedErrors`. An
 * error carrying its own `refusal` (an SMS sender's) is taken at its word.
 * Never throws.
 */
export function refusalOf(error: unknown): Refusal {
  // An SMS sender's refusal says itself what it is (SmsRefusedError, sms.server.ts).
  const told = (error as { refusal?: Refusal } | null)?.refusal;
  if (typeof told?.permanent === "boolean" && typeof told.stage === "string") return told;
  const fields = (typeof error === "object" && error !== null ? error : {}) as SmtpErrorFields;
  const raw = fields.responseCode ?? fields.rejectedErrors?.[0]?.responseCode;
  const code = typeof raw === "number" && raw >= 200 && raw < 600 ? raw : null;
  const stage = stageOf(String(fields.command ?? "").toUpperCase(), String(fields.code ?? ""));
  const permanent = code !== null && code >= 500 && (stage === "recipient" || stage === "message");
  return { permanent, stage, code };
}

/** What a bounce's code says, after « Le fournisseur a renvoyé le message »: « : adresse inexistante ». */
function bounceCause(code: number | null): string {
  if (code === null) return "";
  if (code === 552) return " : boîte de réception pleine";
  if ([550, 551, 553].includes(code)) return " : adresse inexistante";
  return code >= 500 ? " : message refusé" : "";
}

/**
 * The owner's words for a mail that was not delivered, from its stored
 * stage and reply code, e.g. « L’adresse n’existe pas chez son fournisseur (550) ».
 */
export function refusalReason(stage: string | null, code: number | null): string {
  const withCode = (text: string) => (code === null ? text : `${text} (${code})`);
  switch (stage) {
    case "recipient":
      if (code !== null && code >= 500)
        return withCode(
          code === 552
            ? "La boîte de réception de cette personne est pleine"
            : "L’adresse n’existe pas chez son fournisseur",
        );
      return withCode("Le fournisseur de cette adresse demande de réessayer plus tard");
    case "message":
      return withCode(
        code !== null && code >= 500
          ? "Le fournisseur a refusé le message"
          : "Le fournisseur a mis le message en attente et demande de réessayer",
      );
    case "sender":
      return withCode("Le serveur d’envoi du site a refusé l’expéditeur ou la connexion (réglage SMTP à vérifier)");
    case "connection":
      return "Le serveur d’envoi du site ne répondait pas";
    case "expired":
      return "Pas envoyé à temps : ce qu’il annonçait était passé";
    case "bounce":
      return withCode(`Le fournisseur a renvoyé le message${bounceCause(code)}`);
    case "complaint":
      return "La personne a signalé ce message comme indésirable";
    default:
      return withCode("L’envoi a échoué");
  }
}
