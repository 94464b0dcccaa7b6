import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${root.replace(/\/$/, "")}/` },
      // next-auth imports `next/server` without an extension, which Node's ESM resolver refuses.
      { find: /^next\/(server|headers|navigation)$/, replacement: "next/$1.js" },
    ],
  },
  test: {
    pool: "forks",
    server: { deps: { inline: ["next-auth", "@auth/core"] } },
    projects: [
      {
        extends: true,
        // Unit tests spawn git, shells and node: vitest's 5 s default is too close on a loaded 2-core machine.
        test: { name: "unit", include: ["lib/**/*.test.ts", "workers/**/*.test.ts", "scripts/**/*.test.ts"], testTimeout: 20_000 },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          globalSetup: ["test/helpers/global-setup.ts"],
          setupFiles: ["test/helpers/setup-file.ts"],
          // Sandboxed agent runs take 5-15 s each on a loaded 2-core machine and a test may make
          // several; a hang still ends here, and the waits inside tests name what they waited for.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
