import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { hashPassword } from "@/lib/auth/password";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { clientAddress, pairDelayMs, SIGN_IN_LIMITS } from "@/lib/auth/rate-limit";
import { parseTrustedProxies, sanitizeForwarded } from "@/lib/http/forwarded";
import { createFirstOwner, isFirstRun, SignUpClosed } from "@/lib/auth/sign-up";
import { isSessionCurrent } from "@/lib/auth/credentials";
import { signOutEverywhere } from "@/lib/auth/sessions";
import { actorForUser } from "@/lib/auth/actor";
import { parseEnv } from "@/lib/env";
import { POST as signOutAll } from "@/app/api/account/sign-out-everywhere/route";
import { apiToken, request } from "./helpers/api";

const noParams = { params: Promise.resolve({}) };

// Runs first in this file: the database is fresh, so there are no users yet.
describe("first user of a fresh install", () => {
  it("becomes the owner of the first team, once, even when two sign up at the same time", async () => {
    expect(await isFirstRun()).toBe(true);
    const results = await Promise.allSettled([
      createFirstOwner({ email: "First@Example.test", password: "correct horse battery", teamName: "Acme", name: "Ada" }),
      createFirstOwner({ email: "second@example.test", password: "correct horse battery", teamName: "Other" }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(SignUpClosed);
    expect(await isFirstRun()).toBe(false);
    const users = await getDb().user.findMany({ include: { memberships: { include: { team: true } } } });
    expect(users).toHaveLength(1);
    expect(users[0].memberships.map((m) => m.role)).toEqual(["owner"]);
    expect(users[0].passwordHash).toMatch(/^\$argon2id\$/);
    const audit = await getDb().auditEvent.findMany({ where: { teamId: users[0].memberships[0].teamId } });
    expect(audit.map((a) => a.action)).toEqual(["team.created"]);
    await expect(createFirstOwner({ email: "late@example.test", password: "correct horse battery", teamName: "Late" })).rejects.toBeInstanceOf(SignUpClosed);
  });

  it("names the bad field and creates nothing", async () => {
    const before = await getDb().user.count();
    await expect(createFirstOwner({ email: "nope", password: "short", teamName: "" })).rejects.toMatchObject({
      issues: expect.arrayContaining([expect.objectContaining({ path: ["email"] }), expect.objectContaining({ path: ["password"], message: "must be at least 10 characters" })]),
    });
    expect(await getDb().user.count()).toBe(before);
  });
});

async function user(email: string, password: string) {
  return getDb().user.create({ data: { email, passwordHash: await hashPassword(password) } });
}

describe("sign-in rate limits", () => {
  it("five wrong passwords from an attacker do not lock the owner out", async () => {
    await user("owner-kept@example.test", "the-right-password");
    const t0 = new Date("2030-01-01T10:00:00Z");
    for (let i = 0; i < 5; i++) {
      await signInWithPassword("owner-kept@example.test", "wrong", "203.0.113.66", new Date(t0.getTime() + i * 600_000 / 5));
    }
    expect(await signInWithPassword("Owner-Kept@example.test", "the-right-password", "10.0.1.1", new Date(t0.getTime() + 130_000))).toMatchObject({ ok: true });
  });

  it("slows one account at one address progressively: a few free tries, then each waits twice as long", async () => {
    await user("slowed@example.test", "the-right-password");
    const t0 = new Date("2030-01-05T10:00:00Z").getTime();
    const at = (ms: number) => new Date(t0 + ms);
    const attempt = (ms: number) => signInWithPassword("slowed@example.test", "wrong", "198.51.100.3", at(ms));
    for (let i = 0; i < SIGN_IN_LIMITS.freePerPair; i++) expect(await attempt(i)).toEqual({ ok: false, reason: "invalid" });
    expect([pairDelayMs(3), pairDelayMs(4), pairDelayMs(5), pairDelayMs(20)]).toEqual([2_000, 4_000, 8_000, 300_000]);
    expect(await attempt(1_000)).toEqual({ ok: false, reason: "limited" });
    expect(await attempt(2_002 + 1)).toEqual({ ok: false, reason: "invalid" });
    expect(await attempt(2_003 + 3_999)).toEqual({ ok: false, reason: "limited" });
    expect(await attempt(2_003 + 4_000)).toEqual({ ok: false, reason: "invalid" });
    // Even the right password waits its turn at that address; elsewhere the owner is let in.
    expect(await signInWithPassword("slowed@example.test", "the-right-password", "198.51.100.3", at(6_100))).toEqual({ ok: false, reason: "limited" });
    expect(await signInWithPassword("slowed@example.test", "the-right-password", "10.9.9.9", at(6_100))).toMatchObject({ ok: true });
  });

  it(`stops an account at ${SIGN_IN_LIMITS.perAccount} failures from any number of addresses`, async () => {
    await user("ceiling@example.test", "the-right-password");
    const t0 = new Date("2030-01-06T10:00:00Z");
    await getDb().signInAttempt.createMany({
      data: Array.from({ length: SIGN_IN_LIMITS.perAccount }, (_, i) => ({ email: "ceiling@example.test", address: `10.7.${i >> 8}.${i & 255}`, succeeded: false, createdAt: t0 })),
    });
    expect(await signInWithPassword("ceiling@example.test", "the-right-password", "10.8.0.1", new Date(t0.getTime() + 1000))).toEqual({ ok: false, reason: "limited" });
    expect(await signInWithPassword("ceiling@example.test", "the-right-password", "10.8.0.1", new Date(t0.getTime() + SIGN_IN_LIMITS.windowMs + 1000))).toMatchObject({ ok: true });
  });

  it("answers an unknown account exactly like a wrong password, and limits it the same way", async () => {
    await user("known@example.test", "the-right-password");
    const t0 = new Date("2030-01-02T10:00:00Z");
    const known = await signInWithPassword("known@example.test", "wrong", "10.1.0.1", t0);
    const unknown = await signInWithPassword("ghost@example.test", "wrong", "10.1.0.1", t0);
    expect(unknown).toEqual(known);
    for (let i = 1; i < SIGN_IN_LIMITS.freePerPair; i++) {
      await signInWithPassword("known@example.test", "wrong", "10.1.0.1", t0);
      await signInWithPassword("ghost@example.test", "wrong", "10.1.0.1", t0);
    }
    expect(await signInWithPassword("known@example.test", "x", "10.1.0.1", t0)).toEqual({ ok: false, reason: "limited" });
    expect(await signInWithPassword("ghost@example.test", "x", "10.1.0.1", t0)).toEqual({ ok: false, reason: "limited" });
  });

  it(`blocks an address after ${SIGN_IN_LIMITS.perAddress} failures across accounts`, async () => {
    await user("victim@example.test", "the-right-password");
    const t0 = new Date("2030-01-03T10:00:00Z");
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++) {
      await signInWithPassword(`spray-${i}@example.test`, "wrong", "192.0.2.7", t0);
    }
    expect(await signInWithPassword("victim@example.test", "the-right-password", "192.0.2.7", t0)).toEqual({ ok: false, reason: "limited" });
    expect(await signInWithPassword("victim@example.test", "the-right-password", "192.0.2.8", t0)).toMatchObject({ ok: true });
  });

  it("counts a client rotating X-Forwarded-For as one address (the real web server's edge)", async () => {
    const trusted = parseTrustedProxies("");
    const server = createServer(async (req, res) => {
      sanitizeForwarded(req.headers, req.socket.remoteAddress, trusted);
      const headers = new Headers(Object.entries(req.headers).map(([k, v]): [string, string] => [k, String(v)]));
      const email = new URL(req.url!, "http://x").searchParams.get("email")!;
      res.end(JSON.stringify(await signInWithPassword(email, "wrong", clientAddress(headers), new Date("2030-01-07T10:00:00Z"))));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as AddressInfo).port;
      const answers = [];
      for (let i = 0; i <= SIGN_IN_LIMITS.perAddress; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/?email=rotate-${i}@example.test`, { headers: { "x-forwarded-for": `198.18.0.${i}`, "x-real-ip": `198.19.0.${i}` } });
        answers.push((await res.json()).reason);
      }
      expect(answers.at(-1)).toBe("limited");
      expect(answers.filter((a) => a === "invalid")).toHaveLength(SIGN_IN_LIMITS.perAddress);
    } finally {
      server.close();
    }
  });

  it("forgets an account's earlier failures after a correct password", async () => {
    await user("forgetful@example.test", "the-right-password");
    const t0 = new Date("2030-01-04T10:00:00Z");
    for (let i = 0; i < SIGN_IN_LIMITS.freePerPair - 1; i++) await signInWithPassword("forgetful@example.test", "wrong", "10.2.0.1", t0);
    expect(await signInWithPassword("forgetful@example.test", "the-right-password", "10.2.0.1", new Date(t0.getTime() + 1000))).toMatchObject({ ok: true });
    for (let i = 0; i < SIGN_IN_LIMITS.freePerPair; i++) {
      expect(await signInWithPassword("forgetful@example.test", "wrong", "10.2.0.1", new Date(t0.getTime() + 2000))).toEqual({ ok: false, reason: "invalid" });
    }
  });
});

describe("sessions", () => {
  it("sign out everywhere rejects every session issued before it, and is for people only", async () => {
    const u = await user("everywhere@example.test", "the-right-password");
    const team = await getDb().team.create({ data: { name: "T", slug: `t-${u.id}`, memberships: { create: { userId: u.id, role: "viewer" } } } });
    const issuedAt = Math.ceil(Date.now() / 1000);
    expect(await isSessionCurrent(u.id, issuedAt)).toBe(true);
    await signOutEverywhere((await actorForUser(u.id))!, new Date((issuedAt + 5) * 1000));
    expect(await isSessionCurrent(u.id, issuedAt)).toBe(false);
    expect(await isSessionCurrent(u.id, issuedAt + 5)).toBe(true);
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { teamId: team.id } });
    expect(audit).toMatchObject({ action: "account.signed_out_everywhere", actorType: "user", actorId: u.id });
    const byToken = await signOutAll(request("POST", "/api/account/sign-out-everywhere", await apiToken(team.id, "owner")), noParams);
    expect(byToken.status).toBe(403);
  });

  it("reads the session lifetime from AUTH_SESSION_MAX_AGE_S, 7 days by default", () => {
    const base = { DATABASE_URL: "postgresql://x/y" };
    expect(parseEnv(base).AUTH_SESSION_MAX_AGE_S).toBe(604_800);
    expect(parseEnv({ ...base, AUTH_SESSION_MAX_AGE_S: "3600" }).AUTH_SESSION_MAX_AGE_S).toBe(3600);
    expect(() => parseEnv({ ...base, AUTH_SESSION_MAX_AGE_S: "5" })).toThrow(/AUTH_SESSION_MAX_AGE_S must be at least 60 seconds/);
  });
});
