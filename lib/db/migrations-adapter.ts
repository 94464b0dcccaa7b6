import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

// adapter-pg 6.19 rejects the catalog types `name` and `"char"`, which the JS schema engine's
// introspection selects ("Column type 'name' could not be deserialized"); as text they read fine.
const CATALOG_TYPE_OIDS = new Set([18, 19]);
const TEXT_OID = 25;

type Callback = (error: Error | null, result?: pg.QueryResult) => void;

function retypeCatalogColumns(result: pg.QueryResult) {
  for (const field of result.fields ?? []) {
    if (CATALOG_TYPE_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
  }
  return result;
}

class CatalogTextClient extends pg.Client {
  // pg.Pool calls query with a callback, the adapter's transactions with a promise.
  // @ts-expect-error one implementation for pg.Client's many overloads
  query(...args: unknown[]) {
    const callback = typeof args.at(-1) === "function" ? (args.pop() as Callback) : undefined;
    const pending = (super.query as (...a: unknown[]) => Promise<pg.QueryResult>)
      .apply(this, args)
      .then(retypeCatalogColumns);
    if (!callback) return pending;
    pending.then((result) => callback(null, result), (error: Error) => callback(error));
  }
}

export function createMigrationAdapter(connectionString: string) {
  // allowExitOnIdle: otherwise the CLI waits out the pool's 10 s idle timeout before exiting
  return new PrismaPg({ connectionString, allowExitOnIdle: true, Client: CatalogTextClient } as pg.PoolConfig);
}
