import type { NextConfig } from "next";
import { securityHeaders } from "./lib/http/security-headers";

const config: NextConfig = {
  // Separate build folders let several builds of this tree coexist (e.g. parallel e2e runs).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // Worker-side packages with native or dynamic parts stay out of the server bundle.
  serverExternalPackages: ["@node-rs/argon2", "pino", "bullmq", "ioredis", "pg", "@prisma/adapter-pg"],
  typedRoutes: false,
  devIndicators: false,
  poweredByHeader: false,
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders(process.env.NODE_ENV === "development") },
      // Auth.js's own answers; every other API answer sets no-store in app/api/_lib/handler.ts.
      { source: "/api/auth/:path*", headers: [{ key: "Cache-Control", value: "no-store" }] },
    ];
  },
};

export default config;
