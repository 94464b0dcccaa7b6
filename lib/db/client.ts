import { PrismaPg } from "@prisma/adapter-pg";
import { getEnv } from "@/lib/env";
import { PrismaClient } from "@/lib/db/generated/client";

export type Db = InstanceType<typeof PrismaClient>;

// One client per process (DESIGN.md habits); kept on globalThis so Next's dev
// reloads do not open a new pool on every edit.
const holder = globalThis as unknown as { __ringmasterDb?: Db };

export function createDb(databaseUrl: string, poolSize = 10): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize });
  return new PrismaClient({ adapter });
}

export function getDb(): Db {
  holder.__ringmasterDb ??= createDb(getEnv().DATABASE_URL);
  return holder.__ringmasterDb;
}

export async function closeDb(): Promise<void> {
  const db = holder.__ringmasterDb;
  holder.__ringmasterDb = undefined;
  await db?.$disconnect();
}
