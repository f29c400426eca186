/**
 * Database tables (Drizzle, PostgreSQL dialect; PGlite or a PostgreSQL 15+
 * server). `contacts` keeps the first site's columns (spec section 3,
 * DESIGN.md section 7) plus `id` and `created_at`; `outbox` holds every mail
 * the site sends, rendered, written in the same transaction as what it announces.
 * The tables live in `app/db/tables/`, one file per area, all re-exported
 * here (callers import `~/db/schema`; drizzle-kit reads this file).
 * Changing a table: edit its file, then `npm run db:generate` writes the SQL
 * migration into `app/db/migrations/` (commit it); the server applies it at start.
 */
export * from "./tables/contacts";
export * from "./tables/mail";
export * from "./tables/desk";
export * from "./tables/newsletter";
export * from "./tables/courses";
export * from "./tables/content";
export * from "./tables/invoices";
export * from "./tables/limits";
export * from "./tables/privacy";
export * from "./tables/letters";
export * from "./tables/quotes";
