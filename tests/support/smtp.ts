/**
 * A real SMTP peer for tests (smtp-server, no STARTTLS, no auth) that
 * records each mail parsed, and what tests read in those mails.
 */
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";
import { freePort } from "./network";

export interface ReceivedMail {
  from: string;
  to: string;
  replyTo: string | undefined;
  /** The Reply-To's display name ("" when none). */
  replyToName: string;
  subject: string;
  text: string;
  html: string;
  /** The Message-ID header's value, `<…@domain>`. */
  messageId: string;
  /** Every header, lowercase name to its (last) value. */
  headers: Record<string, string>;
  /** The attached files, their content decoded as UTF-8 text. */
  attachments: { filename: string; mimeType: string; content: string }[];
}

/**
 * How a peer refuses (a provider's answers): the SMTP reply code to give at
 * RCPT TO for an address, or at the end of DATA for a message's recipients;
 * undefined accepts.
 */
export interface SmtpRefusals {
  rcpt?(address: string): number | undefined;
  data?(recipients: string[]): number | undefined;
}

/** An smtp-server error answering `code` (550 → "550 5.0.0 refused by the test peer"). */
const refusal = (code: number) =>
  Object.assign(new Error(`${Math.floor(code / 100)}.0.0 refused by the test peer`), { responseCode: code });

/**
 * An SMTP peer on `port` (a free one by default). `mails` collects every
 * accepted message, parsed; `connectionErrors` the socket errors of clients
 * that vanished mid-transaction (ECONNRESET), which are not test failures.
 * `refusals` makes it answer some addresses or messages with an error code.
 */
export async function startSmtp(port?: number, refusals: SmtpRefusals = {}) {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    onRcptTo(address, _session, callback) {
      const code = refusals.rcpt?.(address.address);
      callback(code ? refusal(code) : undefined);
    },
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    // Closing ends the open connections half a second later, not 30 s (the default): a site's pooled
    // transport keeps its connection open while idle, and a stopped peer is what the tests mean.
    closeTimeout: 500,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const code = refusals.data?.(session.envelope.rcptTo.map((to) => to.address));
        if (code) return callback(refusal(code));
        const parsed = await PostalMime.parse(Buffer.concat(chunks));
        mails.push({
          from: parsed.from?.address ?? "",
          to: parsed.to?.map((address) => address.address).join(",") ?? "",
          replyTo: parsed.replyTo?.[0]?.address,
          replyToName: parsed.replyTo?.[0]?.name ?? "",
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: parsed.html ?? "",
          headers: Object.fromEntries(parsed.headers.map((header) => [header.key, header.value])),
          messageId: parsed.messageId ?? "",
          attachments: parsed.attachments.map((file) => ({
            filename: file.filename ?? "",
            mimeType: file.mimeType,
            content: typeof file.content === "string" ? file.content : new TextDecoder().decode(file.content),
          })),
        });
        callback();
      });
    },
  });
  // A client that dies in the middle of a transaction (a site process killed
  // by a test) resets its socket: smtp-server then emits "error", which would
  // be an uncaught exception without a listener. Such errors are recorded.
  const connectionErrors: Error[] = [];
  server.on("error", (error: Error) => connectionErrors.push(error));
  const actualPort = port ?? (await freePort());
  await new Promise<void>((resolve) => server.listen(actualPort, "127.0.0.1", () => resolve()));
  return {
    port: actualPort,
    url: `smtp://127.0.0.1:${actualPort}`,
    mails,
    connectionErrors,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The link to `pathname` (a prefix such as `/newsletter/confirmer/`) in a
 * mail's plain text, made to point at `site` (mails name SITE_URL).
 * @throws when the mail has no such link.
 */
export function linkIn(mail: ReceivedMail, pathname: string, site: { url: string }): string {
  const found = mail.text.match(new RegExp(`https?://[^/\\s]+(${pathname.replace(/[/.]/g, "\\$&")}\\S+)`));
  if (!found) throw new Error(`no ${pathname} link in:\n${mail.text}`);
  return `${site.url}${found[1]}`;
}
