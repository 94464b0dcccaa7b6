export { getDb, getPool, closeDb, createDb, type Db } from "@/lib/db/client";
export { fromJsonRow } from "@/lib/db/json-row";
export { prepared } from "@/lib/db/prepared";
export { Prisma } from "@/lib/db/generated/client";
export * from "@/lib/db/generated/enums";
export type * from "@/lib/db/generated/models";
