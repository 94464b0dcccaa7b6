import { defineConfig } from "prisma/config";
import { createMigrationAdapter } from "./lib/db/migrations-adapter";
import { databaseUrl } from "./scripts/db/database-url";

// The schema-engine binary cannot be downloaded here; the JS engine over the pg adapter
// is what makes `prisma migrate diff` work offline.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => createMigrationAdapter(databaseUrl()),
});
