import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "@/lib/env";

describe("parseEnv", () => {
  it("applies defaults to a minimal environment", () => {
    const env = parseEnv({ DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/x" });
    expect(env.REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(env.LEASE_TTL_MS).toBe(12_000);
    expect(env.LEASE_RENEW_MS).toBe(3_000);
    expect(env.SPAWN_RATE_MAX).toBe(60);
  });

  it("takes a GitHub Enterprise URL for sign-in without its trailing slash, and refuses a non-http one", () => {
    const base = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/x" };
    expect(parseEnv(base).AUTH_GITHUB_URL).toBeUndefined();
    expect(parseEnv({ ...base, AUTH_GITHUB_URL: "https://github.example.com/" }).AUTH_GITHUB_URL).toBe("https://github.example.com");
    expect(() => parseEnv({ ...base, AUTH_GITHUB_URL: "ftp://github.example.com" })).toThrowError(/AUTH_GITHUB_URL must be an http\(s\) URL/);
  });

  it("reads GITHUB_API_HOSTS as origins (a bare host means https), and names a bad entry", () => {
    const base = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/x" };
    expect(parseEnv(base).GITHUB_API_HOSTS).toEqual([]);
    expect(parseEnv({ ...base, GITHUB_API_HOSTS: "ghe.example.com, http://127.0.0.1:4010/api/v3," }).GITHUB_API_HOSTS)
      .toEqual(["https://ghe.example.com", "http://127.0.0.1:4010"]);
    expect(() => parseEnv({ ...base, GITHUB_API_HOSTS: "ftp://x.example" })).toThrowError(/GITHUB_API_HOSTS has "ftp:\/\/x.example"/);
  });

  it("takes a test clock file outside production only", () => {
    const base = { DATABASE_URL: "postgresql://x/y", TEST_CLOCK_FILE: "/tmp/clock" };
    expect(parseEnv({ ...base, NODE_ENV: "test" }).TEST_CLOCK_FILE).toBe("/tmp/clock");
    expect(() => parseEnv({ ...base, NODE_ENV: "production" })).toThrowError(/TEST_CLOCK_FILE is for tests only/);
    expect(() => parseEnv({ ...base, TEST_CLOCK_FILE: "clock" })).toThrowError(/TEST_CLOCK_FILE must be an absolute path/);
  });

  it("names a missing DATABASE_URL", () => {
    expect(() => parseEnv({})).toThrowError(/DATABASE_URL is required/);
  });

  it("names every malformed variable at once", () => {
    try {
      parseEnv({ DATABASE_URL: "mysql://x", REDIS_URL: "http://x", LEASE_TTL_MS: "soon" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(EnvError);
      const issues = (err as EnvError).issues.join("\n");
      expect(issues).toMatch(/DATABASE_URL must be a postgresql:\/\/ URL/);
      expect(issues).toMatch(/REDIS_URL must be a redis:\/\/ URL/);
      expect(issues).toMatch(/LEASE_TTL_MS/);
    }
  });
});
