import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createDatabase, dropDatabase, MIGRATIONS_DIR } from "@/lib/db/migrations";
import { adminUrl, databaseUrl } from "./database-url";
import { runPrisma } from "./prisma-cli";

function utcTimestamp(now: Date) {
  return now.toISOString().replace(/\D/g, "").slice(0, 14);
}

// The JS schema engine replays --from-migrations on the configured database itself (it has no
// separate shadow database), so the replay gets a throwaway database of its own.
async function diffFromMigrations() {
  const admin = adminUrl(databaseUrl());
  const scratch = `ringmaster_migration_${randomBytes(6).toString("hex")}`;
  const scratchUrl = await createDatabase(admin, scratch);
  try {
    return runPrisma(
      ["migrate", "diff", "--from-migrations", MIGRATIONS_DIR, "--to-schema-datamodel", "prisma/schema.prisma", "--script", "--exit-code"],
      { DATABASE_URL: scratchUrl },
    );
  } finally {
    await dropDatabase(admin, scratch);
  }
}

const name = process.argv[2] ?? "";
if (!/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name>   (lowercase letters, digits and underscores)");
  process.exit(1);
}

const diff = await diffFromMigrations();
if (diff.status === 0) {
  console.log("no changes");
} else if (diff.status === 2) {
  const dir = path.join(MIGRATIONS_DIR, `${utcTimestamp(new Date())}_${name}`);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "migration.sql"), diff.stdout);
  console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
} else {
  console.error(diff.stderr || diff.stdout);
  process.exit(1);
}
