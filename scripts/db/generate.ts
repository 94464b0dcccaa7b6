import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runPrisma } from "./prisma-cli";

const schema = fileURLToPath(new URL("../../prisma/schema.prisma", import.meta.url));
const generatedClient = fileURLToPath(new URL("../../lib/db/generated/client.ts", import.meta.url));

function modifiedAt(file: string) {
  return statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

if (modifiedAt(generatedClient) <= modifiedAt(schema)) {
  const result = runPrisma(["generate"]);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exit(result.status);
}
