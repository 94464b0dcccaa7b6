import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, createDatabase, dropDatabase, MIGRATIONS_DIR } from "@/lib/db/migrations";
import { migrationChecksum } from "@/lib/db/migrations-files";
import type { HistoryRow } from "@/lib/db/migrations-history";
import { runPrisma } from "@/scripts/db/prisma-cli";
import { adminUrl } from "./helpers/pg";

const created: string[] = [];
const migrationNames = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

async function scratchDatabase() {
  const name = `rm_migrations_${process.pid}_${randomBytes(4).toString("hex")}`;
  created.push(name);
  return createDatabase(adminUrl, name);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

// pg_dump's comments, session SETs and per-dump \restrict keys differ between any two dumps.
const NOISE = /^(--|SET |SELECT pg_catalog\.set_config|\\(un)?restrict )/;

// A column added by a later migration comes last in its table, and an enum value added later
// comes last in its type, while a fresh build follows schema.prisma's order; Prisma ignores both orders.
function sortMembers(lines: string[]) {
  const result: string[] = [];
  let members: string[] | undefined;
  for (const line of lines) {
    if (members && line === ");") {
      result.push(...members.sort(), line);
      members = undefined;
    } else if (members) {
      members.push(line.replace(/,$/, ""));
    } else {
      result.push(line);
      if (/^CREATE (TABLE|TYPE) .* \($/.test(line)) members = [];
    }
  }
  return result;
}

function schemaDump(url: string) {
  const dump = execFileSync(
    "pg_dump",
    ["--schema-only", "--no-owner", "--no-privileges", "--exclude-table=_prisma_migrations", url],
    { encoding: "utf8" },
  );
  return sortMembers(dump.split("\n").filter((line) => line.trim() !== "" && !NOISE.test(line)));
}

// What a migration sets by hand that schema.prisma cannot say: each must be in the built schema.
const BEYOND_PRISMA = ['ALTER TABLE ONLY public."WebhookDelivery" ALTER COLUMN payload SET COMPRESSION lz4;'];

afterAll(async () => {
  for (const name of created) await dropDatabase(adminUrl, name);
});

describe("applyMigrations", () => {
  it("builds exactly the schema that schema.prisma describes", async () => {
    const migrated = await scratchDatabase();
    const expected = await scratchDatabase();
    await applyMigrations(migrated);
    const diff = runPrisma(
      ["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
      { DATABASE_URL: expected },
    );
    expect(diff.status, diff.stderr).toBe(0);
    await query(expected, diff.stdout);
    const built = schemaDump(migrated);
    for (const line of BEYOND_PRISMA) expect(built).toContain(line);
    expect(built.filter((line) => !BEYOND_PRISMA.includes(line))).toEqual(schemaDump(expected));
  });

  it("records each migration as prisma migrate deploy does, and applies nothing the second time", async () => {
    const url = await scratchDatabase();
    expect(await applyMigrations(url)).toEqual(migrationNames);
    expect(await applyMigrations(url)).toEqual([]);
    const rows = await query<HistoryRow>(
      url,
      "SELECT * FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(rows.map((row) => row.migration_name)).toEqual(migrationNames);
    for (const row of rows) {
      const contents = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      expect(row).toMatchObject({ checksum: migrationChecksum(contents), logs: null, rolled_back_at: null, applied_steps_count: 1 });
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  it("keeps every stored delivery's payload as its JSON text and gives GitHub's their subjects", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rm-migrations-"));
    try {
      const textMigration = migrationNames.indexOf("20261128020000_webhook_payload_text");
      for (const name of migrationNames.slice(0, textMigration)) cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
      const url = await scratchDatabase();
      await applyMigrations(url, { migrationsDir: dir });
      // Rows as the version before stored them: json payloads, most without a subject, one kept
      // as a JSON string of its raw text (what jsonb refused once), a Slack event.
      await query(url, `INSERT INTO "WebhookDelivery" ("id", "provider", "deliveryId", "event", "status", "payload", "subject") VALUES
        ('a', 'github', 'd-a', 'pull_request_review', 'received', '{"pull_request": {"number": 12}, "issue": {"number": 3}}', NULL),
        ('b', 'github', 'd-b', 'check_run', 'processing', '{"check_run": {"head_sha": "abc"}, "sha": "0f0"}', NULL),
        ('c', 'github', 'd-c', 'push', 'received', '{ "ref" : "refs/heads/main" }', NULL),
        ('d', 'github', 'd-d', 'issue_comment', 'received', '"{\\"issue\\": {\\"number\\": 5}, \\"body\\": \\"lone:\\\\ud800\\"}"', NULL),
        ('e', 'github', 'd-e', 'issue_comment', 'received', '{"issue": {"number": 6}, "body": "nul:\\u0000"}', NULL),
        ('f', 'github', 'd-f', 'issues', 'received', '{"issue": {"number": 7}}', '#99'),
        ('g', 'github', 'd-g', 'issues', 'processed', '{"issue": {"number": 8}}', NULL),
        ('h', 'slack', 'd-h', 'message', 'received', '{"connectionId": "x"}', NULL)`);
      await applyMigrations(url);
      const rows = await query<{ id: string; payload: string }>(url, `SELECT "id", "payload", "subject", pg_typeof("payload")::text AS type FROM "WebhookDelivery" ORDER BY "id"`);
      expect(rows).toEqual([
        { id: "a", payload: '{"pull_request": {"number": 12}, "issue": {"number": 3}}', subject: "#12", type: "text" },
        { id: "b", payload: '{"check_run": {"head_sha": "abc"}, "sha": "0f0"}', subject: "@abc", type: "text" },
        { id: "c", payload: '{ "ref" : "refs/heads/main" }', subject: "push", type: "text" },
        // The raw text itself, whose fields Postgres cannot read (a lone surrogate): its event.
        { id: "d", payload: '{"issue": {"number": 5}, "body": "lone:\\ud800"}', subject: "issue_comment", type: "text" },
        { id: "e", payload: '{"issue": {"number": 6}, "body": "nul:\\u0000"}', subject: "issue_comment", type: "text" },
        { id: "f", payload: '{"issue": {"number": 7}}', subject: "#99", type: "text" },
        // Processed: never claimed again.
        { id: "g", payload: '{"issue": {"number": 8}}', subject: null, type: "text" },
        { id: "h", payload: '{"connectionId": "x"}', subject: null, type: "text" },
      ]);
      expect(JSON.parse(rows[3].payload)).toEqual({ issue: { number: 5 }, body: "lone:\ud800" });
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it("applies each migration once when two processes start together", async () => {
    const url = await scratchDatabase();
    const [first, second] = await Promise.all([applyMigrations(url), applyMigrations(url)]);
    expect([...first, ...second].sort()).toEqual(migrationNames);
    const rows = await query(url, "SELECT migration_name FROM _prisma_migrations");
    expect(rows).toHaveLength(migrationNames.length);
  });

  it("refuses a migration whose file changed after it was applied", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rm-migrations-"));
    try {
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      const url = await scratchDatabase();
      await applyMigrations(url, { migrationsDir: dir });
      appendFileSync(path.join(dir, migrationNames[0], "migration.sql"), "\n-- edited\n");
      await expect(applyMigrations(url, { migrationsDir: dir })).rejects.toThrow(/modified after it was applied/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it("rolls a failing migration back without a trace, and stops at one Prisma recorded as failed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rm-migrations-"));
    try {
      mkdirSync(path.join(dir, "20000101000000_broken"));
      writeFileSync(path.join(dir, "20000101000000_broken", "migration.sql"), 'CREATE TABLE "Partial" (id int);\nSELECT no_such_function();\n');
      const url = await scratchDatabase();
      await expect(applyMigrations(url, { migrationsDir: dir })).rejects.toThrow(/20000101000000_broken failed/);
      expect(await query(url, "SELECT * FROM _prisma_migrations")).toEqual([]);
      expect(await query(url, `SELECT to_regclass('"Partial"') AS t`)).toEqual([{ t: null }]);

      await query(url, "INSERT INTO _prisma_migrations (id, checksum, migration_name) VALUES ('x', 'y', '20000101000000_broken')");
      await expect(applyMigrations(url)).rejects.toThrow(/20000101000000_broken started at .* failed/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
