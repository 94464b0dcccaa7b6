import { applyMigrations } from "@/lib/db/migrations";
import { databaseUrl } from "./database-url";

try {
  const applied = await applyMigrations(databaseUrl(), { log: (line) => console.log(line) });
  if (applied.length === 0) console.log("up to date");
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
