import { describe, expect, it } from "vitest";
import { loadSettings, SettingsError } from "./settings.server";

describe("loadSettings", () => {
  it("applies the documented defaults on an empty environment", () => {
    const settings = loadSettings({});
    expect(settings).toMatchObject({
      PORT: 3000,
      SITE_URL: "http://localhost:3000",
      DATA_DIR: "./data",
      MAIL_FROM: "site@localhost",
      NODE_ENV: "production",
      ENABLE_ERROR_TEST_ROUTE: false,
      MAILS_PER_RECIPIENT_PER_DAY: 10,
      BOOKING_SEATS_PER_ADDRESS_PER_DAY: 6,
      BOOKING_BURST_REGISTRATIONS: 3,
    });
    expect(settings.DATABASE_URL).toBeUndefined();
    expect(settings.SMTP_URL).toBeUndefined();
  });

  it("reads INVOICE_IBAN as typed, with spaces, and keeps it without them", () => {
    expect(loadSettings({ INVOICE_IBAN: "ch56 0483 5012 3456 7800 9" }).INVOICE_IBAN).toBe("CH5604835012345678009");
    expect(loadSettings({}).INVOICE_IBAN).toBeUndefined();
  });

  it("takes MAIL_FROM with the sender's name, as mails show it (« Jean-Marc Favre <site@exemple.ch> »)", () => {
    expect(loadSettings({ MAIL_FROM: "Jean-Marc Favre <site@exemple.ch>" }).MAIL_FROM).toBe(
      "Jean-Marc Favre <site@exemple.ch>",
    );
    expect(loadSettings({ MAIL_FROM: '"Favre, Jean-Marc" <site@exemple.ch>' }).MAIL_FROM).toBe(
      '"Favre, Jean-Marc" <site@exemple.ch>',
    );
    expect(loadSettings({ MAIL_FROM: "site@exemple.ch" }).MAIL_FROM).toBe("site@exemple.ch");
  });

  it("reads DNS_SERVERS as a list of addresses with optional ports", () => {
    expect(loadSettings({ DNS_SERVERS: "192.0.2.53, 127.0.0.1:5353,[2001:db8::53]:53" }).DNS_SERVERS).toEqual([
      "192.0.2.53",
      "127.0.0.1:5353",
      "[2001:db8::53]:53",
    ]);
    expect(loadSettings({}).DNS_SERVERS).toBeUndefined();
  });

  it("treats empty values as unset", () => {
    expect(loadSettings({ PORT: "", SITE_URL: "  " }).PORT).toBe(3000);
  });

  it("reads valid values and drops a trailing slash from SITE_URL", () => {
    const settings = loadSettings({ PORT: "8080", SITE_URL: "https://www.example.ch/" });
    expect(settings.PORT).toBe(8080);
    expect(settings.SITE_URL).toBe("https://www.example.ch");
  });

  it.each([
    [{ PORT: "abc" }, /PORT: must be a whole number.*\(got "abc"\)/],
    [{ PORT: "70000" }, /PORT: must be a whole number/],
    [{ SITE_URL: "www.example.ch" }, /SITE_URL: must be an absolute URL/],
    [{ SITE_URL: "https://example.ch/blog" }, /SITE_URL: must be an origin only/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL: must start with postgres/],
    [
      { MAIL_FROM: "not-an-address" },
      /MAIL_FROM: doit être une adresse e-mail, avec ou sans nom.*\(got "not-an-address"\)/,
    ],
    [{ MAIL_FROM: "Jean <pas-une-adresse>" }, /MAIL_FROM: doit être une adresse e-mail, avec ou sans nom/],
    [{ MAIL_FROM: "a@exemple.ch, b@exemple.ch" }, /MAIL_FROM: doit être une adresse e-mail, avec ou sans nom/],
    [{ CONTACT_NOTIFY_TO: "Jean <jean@exemple.ch>" }, /CONTACT_NOTIFY_TO: doit être une seule adresse e-mail/],
    [
      { MAIL_WEBHOOK_SIGNING_KEY: "court" },
      /^- MAIL_WEBHOOK_SIGNING_KEY: doit être la clé de signature des webhooks de Mailgun[^"]*$/m,
    ],
    [{ SMTP_URL: "mail.exemple.ch:587", CONTACT_NOTIFY_TO: "a@exemple.ch" }, /SMTP_URL: doit avoir la forme smtp:\/\//],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL: must be one of/],
    [{ SMTP_URL: "smtp://mail.example.ch:587" }, /CONTACT_NOTIFY_TO: est obligatoire quand SMTP_URL est réglé/],
    [{ INVOICE_IBAN: "CH56 0483 5012 3456 7800 8" }, /INVOICE_IBAN: must be a Swiss IBAN or QR-IBAN/],
    [{ INVOICE_IBAN: "DE89 3704 0044 0532 0130 00" }, /INVOICE_IBAN: must be a Swiss IBAN or QR-IBAN/],
    [{ MAILS_PER_RECIPIENT_PER_DAY: "0" }, /MAILS_PER_RECIPIENT_PER_DAY: must be a whole number of mails.*\(got "0"\)/],
    [
      { BOOKING_SEATS_PER_ADDRESS_PER_DAY: "2.5" },
      /BOOKING_SEATS_PER_ADDRESS_PER_DAY: must be a whole number of seats/,
    ],
    [{ BOOKING_BURST_REGISTRATIONS: "1" }, /BOOKING_BURST_REGISTRATIONS: must be a whole number of registrations/],
    [{ DATA_DIR_CREATE: "yes" }, /DATA_DIR_CREATE: must be 0 or 1/],
    [{ RENDER_CACHE_WARM_UP: "off" }, /RENDER_CACHE_WARM_UP: must be 0 or 1/],
    [{ DNS_SERVERS: "dns.exemple.ch" }, /DNS_SERVERS: doit être une ou plusieurs adresses IP de serveurs DNS/],
  ])("names the wrong variable: %j", (env, message) => {
    expect(() => loadSettings(env)).toThrow(SettingsError);
    expect(() => loadSettings(env)).toThrow(message);
  });

  it("lists every wrong variable at once and never echoes a connection string", () => {
    let message = "";
    try {
      loadSettings({ PORT: "x", DATABASE_URL: "mysql://user:secret@host/db" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("PORT");
    expect(message).toContain("DATABASE_URL");
    expect(message).not.toContain("secret");
  });

  it("makes a missing DATA_DIR only for the default ./data, unless DATA_DIR_CREATE says otherwise", () => {
    expect(loadSettings({}).DATA_DIR_CREATE).toBe(true);
    expect(loadSettings({ DATA_DIR: "/srv/site/data" }).DATA_DIR_CREATE).toBe(false);
    expect(loadSettings({ DATA_DIR: "/srv/site/data", DATA_DIR_CREATE: "1" }).DATA_DIR_CREATE).toBe(true);
    expect(loadSettings({ DATA_DIR_CREATE: "0" }).DATA_DIR_CREATE).toBe(false);
  });
});
