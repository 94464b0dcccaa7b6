import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const prismaBin = `${root}node_modules/.bin/prisma`;
// Prisma only checks that these paths exist; pointing them at any file stops it from
// downloading engines it does not need (queries run on the JS client engine, diffs on the JS schema engine).
const engineStandIn = `${root}node_modules/prisma/package.json`;

export type PrismaResult = { status: number; stdout: string; stderr: string };

export function runPrisma(args: string[], env: Record<string, string> = {}): PrismaResult {
  const result = spawnSync(prismaBin, args, {
    cwd: root,
    encoding: "utf8",
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: engineStandIn,
      PRISMA_QUERY_ENGINE_LIBRARY: engineStandIn,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      ...env,
    },
  });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}
