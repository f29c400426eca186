import { defineConfig } from "drizzle-kit";

// `npm run db:generate` compares app/db/schema.ts with the committed
// migrations and writes the next SQL migration.
export default defineConfig({
  dialect: "postgresql",
  schema: "./app/db/schema.ts",
  out: "./app/db/migrations",
});
