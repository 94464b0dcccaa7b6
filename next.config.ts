import type { NextConfig } from "next";

const config: NextConfig = {
  // Worker-side packages with native or dynamic parts stay out of the server bundle.
  serverExternalPackages: ["@node-rs/argon2", "pino", "bullmq", "ioredis", "pg", "@prisma/adapter-pg"],
  typedRoutes: false,
  devIndicators: false,
};

export default config;
