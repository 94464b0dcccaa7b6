#!/usr/bin/env node
// `npx ringmaster <command>` from a checkout of Ringmaster. The commands are TypeScript run through
// tsx (a dependency), told where this checkout's tsconfig is so its `@/` imports resolve from any
// working directory.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const COMMANDS = {
  runner: { file: "runner/main.ts", about: "run agents on this machine for a Ringmaster server (--url … --token …)" },
};

const [command, ...rest] = process.argv.slice(2);
const chosen = COMMANDS[command ?? ""];
if (!chosen) {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(8)} ${c.about}`);
  console.error([command && command !== "help" && command !== "--help" ? `unknown command "${command}"` : null, "usage: npx ringmaster <command> [options]", "", "commands:", ...lines].filter((l) => l !== null).join("\n"));
  process.exit(command === "help" || command === "--help" ? 0 : 2);
}

const { register } = await import("tsx/esm/api");
register({ tsconfig: join(root, "tsconfig.json") });
// The command reads its own options from process.argv, as if started directly.
process.argv = [process.argv[0], join(root, chosen.file), ...rest];
await import(pathToFileURL(join(root, chosen.file)).href);
