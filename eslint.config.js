import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".next*/", ".data/", "lib/db/generated/", "test-results/", "playwright-report/", "next-env.d.ts"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Imports flow app/, workers/ → lib/, never back (DESIGN.md).
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [
        { group: ["@/app/*", "@/workers/*", "**/app/*", "**/workers/*"], message: "lib/ must not import app/ or workers/" },
      ] }],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "read configuration through lib/env.ts" }],
    },
  },
  {
    files: ["lib/env.ts"],
    rules: { "no-restricted-properties": "off" },
  },
);
