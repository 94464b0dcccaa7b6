import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

export type MigrationFile = { name: string; sql: string; checksum: string };

// Prisma's checksum: sha256 of migration.sql's bytes, lowercase hex.
export function migrationChecksum(contents: Buffer | string) {
  return createHash("sha256").update(contents).digest("hex");
}

// Prisma orders migrations by directory name, whose timestamp prefix makes that chronological.
export async function readMigrationFiles(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(migrationsDir, name, "migration.sql");
      const contents = await readFile(file).catch(() => {
        throw new Error(`Migration ${name} has no migration.sql (${file})`);
      });
      return { name, sql: contents.toString("utf8"), checksum: migrationChecksum(contents) };
    }),
  );
}
