import type pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";

type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;

// Prisma ends an interactive transaction by sending COMMIT or ROLLBACK and only then
// calling the adapter's commit()/rollback(), which hand the connection back to the pool.
// When Postgres has dropped the connection (a restart, pg_terminate_backend) that
// statement throws and the hand-back never happens: @prisma/adapter-pg 6.19 leaks one
// pooled connection per transaction cut short, and once the pool is used up every query
// waits forever. Here a failed COMMIT or ROLLBACK releases the connection with its error,
// so pg-pool destroys it and opens a new one; the hand-back is made idempotent so the
// adapter's own later release cannot throw "already released".
const ENDS_TRANSACTION = /^\s*(COMMIT|ROLLBACK)\s*$/i;

function guard(tx: Transaction): Transaction {
  const client = (tx as unknown as { client: pg.PoolClient }).client;
  const release = client.release.bind(client);
  let released = false;
  client.release = (err?: Error | boolean) => {
    if (released) return;
    released = true;
    release(err);
  };
  const executeRaw = tx.executeRaw.bind(tx);
  tx.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (err) {
      if (ENDS_TRANSACTION.test(query.sql)) client.release(err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
  };
  return tx;
}

/** Prisma's pg adapter on our pool, minus its connection leak on transactions cut short. */
export class GuardedPrismaPg extends PrismaPg {
  async connect(): Promise<Adapter> {
    const adapter = await super.connect();
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => guard(await start(isolationLevel));
    return adapter;
  }
}
