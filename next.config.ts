import type { NextConfig } from "next";

const config: NextConfig = {
  // Separate build folders let several builds of this tree coexist (e.g. parallel e2e runs).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // Worker-side packages with native or dynamic parts stay out of the server bundle.
  serverExternalPackages: ["@node-rs/argon2", "pino", "bullmq", "ioredis", "pg", "@prisma/adapter-pg"],
  typedRoutes: false,
  devIndicators: false,
};

export default config;
