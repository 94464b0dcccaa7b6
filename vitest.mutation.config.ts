// The test run Stryker uses for one mutation group (scripts/mutation.ts): only the group's
// test files, unit and integration alike, each integration file with its own database.
import { defineConfig, type UserConfig } from "vitest/config";
import base from "./vitest.config";

const shared = base as UserConfig;
const files = (process.env.MUTATION_TEST_FILES ?? "").split(",").filter(Boolean);
const unit = files.filter((f) => !f.startsWith("test/"));
const integration = files.filter((f) => f.startsWith("test/"));

export default defineConfig({
  resolve: shared.resolve,
  test: {
    server: shared.test?.server,
    projects: [
      ...(unit.length ? [{ extends: true as const, test: { name: "unit", include: unit } }] : []),
      ...(integration.length ? [{
        extends: true as const,
        test: {
          name: "integration", include: integration,
          globalSetup: ["test/helpers/global-setup.ts"], setupFiles: ["test/helpers/setup-file.ts"],
          testTimeout: 60_000, hookTimeout: 60_000,
        },
      }] : []),
    ],
  },
});
