import { hostname } from "node:os";
import { getEnv } from "@/lib/env";

/** This process's name in tick locks and run leases. */
export const workerId = () => getEnv().WORKER_ID ?? `${hostname()}:${process.pid}`;
