/**
 * The one place tests and benchmarks start the site and its peers: a real
 * SMTP server (smtp-server, no STARTTLS, no auth) that records parsed mails,
 * a throwaway PostgreSQL 15 cluster from Debian's packages (when installed),
 * the site in this process (`startTestServer`) or as a process of its own
 * (`spawnSite`: the compiled server, as production runs it, to be signalled,
 * killed or measured).
 */
export * from "./network";
export * from "./smtp";
export * from "./databases";
export * from "./sites";
export * from "./owners";
export * from "./fixtures";
