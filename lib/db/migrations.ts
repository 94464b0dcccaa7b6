import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { type MigrationFile, readMigrationFiles } from "./migrations-files";
import { ensureHistory, type HistoryRow, recordApplied } from "./migrations-history";

export { createDatabase, dropDatabase } from "./migrations-database";

export const MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));

// The key `prisma migrate deploy` locks too, so this runner and Prisma never migrate at once.
const PRISMA_ADVISORY_LOCK = 72707369;

type Options = { migrationsDir?: string; log?: (line: string) => void };

export async function applyMigrations(databaseUrl: string, options: Options = {}): Promise<string[]> {
  const files = await readMigrationFiles(options.migrationsDir ?? MIGRATIONS_DIR);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    const pending = pendingMigrations(files, await ensureHistory(client));
    for (const migration of pending) {
      await applyOne(client, migration);
      options.log?.(`applied ${migration.name}`);
    }
    return pending.map((migration) => migration.name);
  } finally {
    await client.end();
  }
}

function pendingMigrations(files: MigrationFile[], history: HistoryRow[]) {
  const failed = history.find((row) => !row.finished_at && !row.rolled_back_at);
  if (failed) {
    throw new Error(
      `Migration ${failed.migration_name} started at ${failed.started_at.toISOString()} failed; ` +
        "no further migrations are applied until it is resolved (prisma migrate resolve, Prisma error P3009).",
    );
  }
  const applied = new Map(history.filter((row) => !row.rolled_back_at).map((row) => [row.migration_name, row]));
  for (const file of files) {
    const row = applied.get(file.name);
    if (row && row.checksum !== file.checksum) {
      throw new Error(
        `Migration ${file.name} was modified after it was applied (checksum ${file.checksum}, recorded ${row.checksum}); ` +
          "restore the file and put the change in a new migration.",
      );
    }
  }
  return files.filter((file) => !applied.has(file.name));
}

// Unlike Prisma, a failure leaves no row behind: the transaction rolled the migration back,
// so the next run may simply retry it.
async function applyOne(client: pg.Client, migration: MigrationFile) {
  await client.query("BEGIN");
  try {
    await client.query(migration.sql);
    await recordApplied(client, randomUUID(), migration.name, migration.checksum);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw new Error(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
