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
        test: { name: "unit", include: ["lib/**/*.test.ts", "workers/**/*.test.ts", "scripts/**/*.test.ts"] },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          globalSetup: ["test/helpers/global-setup.ts"],
          setupFiles: ["test/helpers/setup-file.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
