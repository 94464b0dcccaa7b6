// Builds one migrated template database per test run; each test file then gets its
// own copy (setup-file.ts), so files run in parallel and leave nothing behind.
import type { TestProject } from "vitest/node";
import { applyMigrations } from "@/lib/db/migrations";
import { adminQuery, databaseUrl, dropDatabaseSql } from "./pg";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const template = `rm_test_tpl_${process.pid}`;
  await adminQuery(dropDatabaseSql(template));
  await adminQuery(`CREATE DATABASE "${template}"`);
  await applyMigrations(databaseUrl(template), { log: () => {} });
  project.provide("templateDatabase", template);
  return async () => {
    await adminQuery(dropDatabaseSql(template));
  };
}
