/**
 * Settings: every environment variable the site reads, validated, in one
 * module. The server reads them once at start (`server/index.ts`) and passes
 * them to loaders and actions (`context.get(settingsContext)`,
 * app/context.server.ts).
 *
 * `loadSettings(env)` returns a typed, frozen `Settings` object or throws a
 * `SettingsError` whose message names each wrong variable and what is wrong
 * with it (in English, for the operator; the mail variables' in French, decision 042).
 * Defaults follow DESIGN.md section 6; `.env.example` lists the same variables.
 */
import { Resolver } from "node:dns";
import os from "node:os";
import { addressParser } from "postal-mime";
import { z } from "zod";
import { isValidSwissIban, normalizeIban } from "~/utils/iban";

// 0 lets the system pick a free port (tests).
const port = z.coerce
  .number({ message: "must be a whole number between 1 and 65535" })
  .int("must be a whole number between 1 and 65535")
  .min(0, "must be a whole number between 1 and 65535")
  .max(65535, "must be a whole number between 1 and 65535");

const httpUrl = z
  .string()
  .url("must be an absolute URL such as https://www.example.ch")
  .refine((value) => /^https?:\/\//.test(value), "must start with http:// or https://")
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.pathname === "/" && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, "must be an origin only (no path, query or #fragment), e.g. https://www.example.ch")
  .transform((value) => value.replace(/\/$/, ""));

/** The French message of a mail variable that is not one e-mail address. */
const NOT_AN_ADDRESS = "doit être une seule adresse e-mail, par exemple site@exemple.ch";

const emailAddress = z.string().email(NOT_AN_ADDRESS);

/**
 * One mailbox, with or without a display name: « site@exemple.ch » or
 * « Jean-Marc Favre <site@exemple.ch> » (a name with a comma in quotes),
 * parsed by postal-mime's `addressParser` (nodemailer's parser, published by its author as a public
 * function) and kept as written (nodemailer encodes the name).
 */
const mailbox = z.string().refine((value) => {
  const parsed = addressParser(value, { flatten: true });
  return parsed.length === 1 && z.string().email().safeParse(parsed[0]!.address).success;
}, "doit être une adresse e-mail, avec ou sans nom : « site@exemple.ch » ou « Jean-Marc Favre <site@exemple.ch> » (un nom avec une virgule entre guillemets)");

/** The schema of the process environment; unknown variables are ignored. */
export const settingsSchema = z
  .object({
    NODE_ENV: z
      .enum(["development", "production", "test"], {
        message: "must be development, production or test",
      })
      .default("production"),
    PORT: port.default(3000),
    HOST: z.string().min(1, "must not be empty").default("0.0.0.0"),
    SITE_URL: httpUrl.default("http://localhost:3000"),
    DATA_DIR: z.string().min(1, "must not be empty").default("./data"),
    // Whether a DATA_DIR that does not exist is made (a new, empty site). Unset: yes for the default
    // ./data (the first `npm start`), no for a folder the operator named (a typo or a wrong working
    // folder would otherwise start an empty site beside the real one); `loadSettings` fills it in.
    DATA_DIR_CREATE: z.enum(["0", "1"], { message: "must be 0 or 1" }).transform((value) => value === "1"),
    DATABASE_URL: z
      .string()
      .refine((value) => /^postgres(ql)?:\/\//.test(value), "must start with postgres:// or postgresql://")
      .optional(),
    SMTP_URL: z
      .string()
      .refine(
        (value) => /^smtps?:\/\/[^/]+/.test(value),
        "doit avoir la forme smtp://utilisateur:mot-de-passe@serveur:587 ou smtps://utilisateur:mot-de-passe@serveur:465",
      )
      .optional(),
    MAIL_FROM: mailbox.default("site@localhost"),
    CONTACT_NOTIFY_TO: emailAddress.optional(),
    /**
     * Mailgun's webhook signing key (decision 044): with it, `POST /webhooks/courrier` takes the provider's
     * bounces and complaints; unset, that path answers 404.
     */
    MAIL_WEBHOOK_SIGNING_KEY: z
      .string()
      .regex(
        /^\S{16,200}$/,
        "doit être la clé de signature des webhooks de Mailgun (« HTTP webhook signing key », de 16 à 200 caractères, sans espace)",
      )
      .optional(),
    /**
     * Where SMS go (app/mail/sms.server.ts, decision 051): `log` (the default: written to the log as their row id,
     * not sent) or `aspsms` (ASPSMS's JSON API, with ASPSMS_USERKEY, ASPSMS_PASSWORD and SMS_FROM).
     */
    SMS_PROVIDER: z.enum(["log", "aspsms"], { message: "must be log or aspsms" }).default("log"),
    ASPSMS_USERKEY: z
      .string()
      .regex(/^\S{4,100}$/, "must be the ASPSMS account's UserKey (no space)")
      .optional(),
    ASPSMS_PASSWORD: z
      .string()
      .regex(/^\S{4,200}$/, "must be the ASPSMS account's API password (no space)")
      .optional(),
    // The API's origin: ASPSMS's own, or a test's fake.
    ASPSMS_URL: httpUrl.default("https://json.aspsms.com"),
    /** The sender an SMS shows: up to 11 letters and digits (« CoursInfo »), or a number in E.164. */
    SMS_FROM: z
      .string()
      .regex(
        /^(?:[A-Za-z0-9]{1,11}|\+\d{8,15})$/,
        "must be up to 11 letters and digits without space (e.g. CoursInfo), or a number such as +41791234567",
      )
      .optional(),
    SMS_PER_NUMBER_PER_DAY: z.coerce
      .number({ message: "must be a whole number of SMS between 1 and 50" })
      .int("must be a whole number of SMS between 1 and 50")
      .min(1, "must be a whole number of SMS between 1 and 50")
      .max(50, "must be a whole number of SMS between 1 and 50")
      .default(3),
    /**
     * The DNS servers the desk's sender check asks (app/mail/sender-check.server.ts), comma-separated IP
     * addresses with an optional port (« 192.0.2.53, [2001:db8::53]:53 »); unset: the system's.
     */
    DNS_SERVERS: z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((server) => server.trim())
          .filter(Boolean),
      )
      .refine((servers) => {
        try {
          new Resolver().setServers(servers);
          return servers.length > 0;
        } catch {
          return false;
        }
      }, "doit être une ou plusieurs adresses IP de serveurs DNS séparées par des virgules, avec ou sans port : « 192.0.2.53 » ou « 127.0.0.1:5353, [2001:db8::53]:53 »")
      .optional(),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
        message: "must be one of fatal, error, warn, info, debug, trace, silent",
      })
      .default("info"),
    CONTACT_RATE_LIMIT_MAX: z.coerce
      .number({ message: "must be a whole number of requests, at least 1" })
      .int("must be a whole number of requests, at least 1")
      .min(1, "must be a whole number of requests, at least 1")
      .default(5),
    CONTACT_RATE_LIMIT_WINDOW_MINUTES: z.coerce
      .number({ message: "must be a number of minutes between 1 and 1440" })
      .min(1, "must be a number of minutes between 1 and 1440")
      .max(1440, "must be a number of minutes between 1 and 1440")
      .default(10),
    OUTBOX_POLL_SECONDS: z.coerce
      .number({ message: "must be a number of seconds between 0.1 and 3600" })
      .min(0.1, "must be a number of seconds between 0.1 and 3600")
      .max(3600, "must be a number of seconds between 0.1 and 3600")
      .default(5),
    OUTBOX_LEASE_SECONDS: z.coerce
      .number({ message: "must be a number of seconds between 1 and 86400" })
      .min(1, "must be a number of seconds between 1 and 86400")
      .max(86400, "must be a number of seconds between 1 and 86400")
      .default(300),
    OUTBOX_MAX_ATTEMPTS: z.coerce
      .number({ message: "must be a whole number of attempts between 1 and 1000" })
      .int("must be a whole number of attempts between 1 and 1000")
      .min(1, "must be a whole number of attempts between 1 and 1000")
      .max(1000, "must be a whole number of attempts between 1 and 1000")
      // About 18 hours with the back-off of 1, 2, 4, 8, 16 then every 30 minutes (decision 042).
      .default(40),
    SMTP_MAX_CONNECTIONS: z.coerce
      .number({ message: "must be a whole number of connections between 1 and 20" })
      .int("must be a whole number of connections between 1 and 20")
      .min(1, "must be a whole number of connections between 1 and 20")
      .max(20, "must be a whole number of connections between 1 and 20")
      .default(1),
    NEWSLETTER_RATE_PER_MINUTE: z.coerce
      .number({ message: "must be a whole number of mails per minute between 1 and 10000" })
      .int("must be a whole number of mails per minute between 1 and 10000")
      .min(1, "must be a whole number of mails per minute between 1 and 10000")
      .max(10000, "must be a whole number of mails per minute between 1 and 10000")
      .default(60),
    RENDER_CACHE_MAX_MB: z.coerce
      .number({ message: "must be a whole number of megabytes between 1 and 1024" })
      .int("must be a whole number of megabytes between 1 and 1024")
      .min(1, "must be a whole number of megabytes between 1 and 1024")
      .max(1024, "must be a whole number of megabytes between 1 and 1024")
      .default(16),
    // The pages memory's bound evicts go to disk (server/render-cache-spill.ts, decision 077); 0: no disk tier.
    RENDER_CACHE_DISK_MB: z.coerce
      .number({ message: "must be a whole number of megabytes between 0 and 65536" })
      .int("must be a whole number of megabytes between 0 and 65536")
      .min(0, "must be a whole number of megabytes between 0 and 65536")
      .max(65536, "must be a whole number of megabytes between 0 and 65536")
      .default(256),
    // The folder in which the process makes its own for them (removed when it stops): a disk, not memory.
    RENDER_CACHE_DISK_DIR: z.string().min(1, "must not be empty").default(os.tmpdir()),
    // 0 leaves every page to be rendered at its first visit: test sites whose subject is not the cache.
    RENDER_CACHE_WARM_UP: z
      .enum(["0", "1"], { message: "must be 0 or 1" })
      .default("1")
      .transform((value) => value === "1"),
    SHUTDOWN_GRACE_SECONDS: z.coerce
      .number({ message: "must be a number of seconds between 0 and 300" })
      .min(0, "must be a number of seconds between 0 and 300")
      .max(300, "must be a number of seconds between 0 and 300")
      .default(10),
    // Time one picture's making may take before its child process is killed (issue 33 item 5): a setting a
    // test shortens (tenths of a second: the child is killed by a timer, not by sharp's whole seconds).
    PICTURE_TIMEOUT_SECONDS: z.coerce
      .number({ message: "must be a number of seconds between 0.1 and 600" })
      .min(0.1, "must be a number of seconds between 0.1 and 600")
      .max(600, "must be a number of seconds between 0.1 and 600")
      .default(30),
    // Limits on what one person can book (issue 22 item 5, decision 028): settings a test shortens.
    MAILS_PER_RECIPIENT_PER_DAY: z.coerce
      .number({ message: "must be a whole number of mails between 1 and 1000" })
      .int("must be a whole number of mails between 1 and 1000")
      .min(1, "must be a whole number of mails between 1 and 1000")
      .max(1000, "must be a whole number of mails between 1 and 1000")
      .default(10),
    // Past this many booking notices in an hour, the owner gets one digest (decision 036).
    OWNER_BOOKING_NOTICES_PER_HOUR: z.coerce
      .number({ message: "must be a whole number of notices between 1 and 1000" })
      .int("must be a whole number of notices between 1 and 1000")
      .min(1, "must be a whole number of notices between 1 and 1000")
      .max(1000, "must be a whole number of notices between 1 and 1000")
      .default(5),
    BOOKING_SEATS_PER_ADDRESS_PER_DAY: z.coerce
      .number({ message: "must be a whole number of seats between 1 and 1000" })
      .int("must be a whole number of seats between 1 and 1000")
      .min(1, "must be a whole number of seats between 1 and 1000")
      .max(1000, "must be a whole number of seats between 1 and 1000")
      .default(6),
    BOOKING_BURST_REGISTRATIONS: z.coerce
      .number({ message: "must be a whole number of registrations between 2 and 1000" })
      .int("must be a whole number of registrations between 2 and 1000")
      .min(2, "must be a whole number of registrations between 2 and 1000")
      .max(1000, "must be a whole number of registrations between 2 and 1000")
      .default(3),
    AUTH_SECRET: z
      .string()
      .min(32, "must be at least 32 characters (e.g. the output of: openssl rand -base64 32)")
      .optional(),
    /**
     * The account invoices are paid to (app/invoices/creditor.server.ts): a Swiss IBAN or QR-IBAN, spaces allowed.
     * Unset: the desk makes no invoice and says « IBAN manquant ».
     */
    INVOICE_IBAN: z
      .string()
      .transform(normalizeIban)
      .refine(
        isValidSwissIban,
        "must be a Swiss IBAN or QR-IBAN (CH or LI, 21 characters, valid check digits), e.g. CH56 0483 5012 3456 7800 9",
      )
      .optional(),
    ENABLE_ERROR_TEST_ROUTE: z
      .enum(["0", "1"], { message: "must be 0 or 1" })
      .default("0")
      .transform((value) => value === "1"),
  })
  .superRefine((settings, context) => {
    if (settings.SMS_PROVIDER === "aspsms")
      for (const name of ["ASPSMS_USERKEY", "ASPSMS_PASSWORD", "SMS_FROM"] as const)
        if (!settings[name])
          context.addIssue({ code: "custom", path: [name], message: "is required when SMS_PROVIDER is aspsms" });
    if (settings.SMTP_URL && !settings.CONTACT_NOTIFY_TO) {
      context.addIssue({
        code: "custom",
        path: ["CONTACT_NOTIFY_TO"],
        message:
          "est obligatoire quand SMTP_URL est réglé : c’est l’adresse où arrivent les nouvelles demandes et les avis du site",
      });
    }
  });

/** Validated settings, as the rest of the server sees them. */
export type Settings = Readonly<z.output<typeof settingsSchema>>;

/** Thrown by `loadSettings` when one or more variables are wrong. */
export class SettingsError extends Error {
  override name = "SettingsError";
}

/**
 * The error of one or more wrong variables, each `[name, what is wrong]`, in the words the start-up prints:
 * "Invalid settings:\n- NAME: what is wrong".
 */
export const invalidSettings = (problems: [name: string, problem: string][]) =>
  new SettingsError(`Invalid settings:\n${problems.map(([name, problem]) => `- ${name}: ${problem}`).join("\n")}`);

/**
 * Validates `env` (normally `process.env`); empty strings count as unset.
 * DATA_DIR_CREATE, when unset, is 1 if DATA_DIR is unset too (the default
 * `./data` is made at the first start) and 0 otherwise.
 * @throws SettingsError listing every wrong variable, e.g.
 *   "Invalid settings:\n- PORT: must be a whole number between 1 and 65535 (got "abc")"
 */
export function loadSettings(env: Record<string, string | undefined> = process.env): Settings {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
  cleaned.DATA_DIR_CREATE ??= "DATA_DIR" in cleaned ? "0" : "1";
  const result = settingsSchema.safeParse(cleaned);
  if (result.success) return Object.freeze(result.data);
  throw invalidSettings(
    result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "settings");
      const got =
        name in cleaned && !/SMTP_URL|DATABASE_URL|AUTH_SECRET|SIGNING_KEY|PASSWORD/.test(name)
          ? ` (got "${cleaned[name]}")`
          : "";
      return [name, `${issue.message}${got}`];
    }),
  );
}
