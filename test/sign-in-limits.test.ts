// The sign-in limits in process, on their own table, at exact boundaries (test/auth.test.ts
// drives them through sign-in).
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { clientAddress, isSignInLimited, normalizeEmail, pairDelayMs, recordSignInAttempt, SIGN_IN_LIMITS } from "@/lib/auth/rate-limit";

let day = 0;
/** A fresh instant per test (attempts of one test never fall in another's window). */
const fresh = () => new Date(Date.UTC(2031, 0, 1 + day++, 12));
const at = (t0: Date, ms: number) => new Date(t0.getTime() + ms);

async function fail(email: string, address: string, when: Date, times = 1) {
  for (let i = 0; i < times; i++) await recordSignInAttempt(email, address, false, when);
}

describe("the sign-in limits' figures", () => {
  it("are a 15-minute window, 3 free tries, 2 s doubling to 5 min, 20 per address and 200 per account", () => {
    expect(SIGN_IN_LIMITS).toEqual({ windowMs: 900_000, freePerPair: 3, firstDelayMs: 2_000, maxDelayMs: 300_000, perAddress: 20, perAccount: 200 });
  });

  it.each([[0, 0], [2, 0], [3, 2_000], [4, 4_000], [10, 256_000], [11, 300_000], [40, 300_000]])("after %i failures the next try waits %i ms", (failures, ms) => {
    expect(pairDelayMs(failures)).toBe(ms);
  });

  it("compares addresses by their first forwarded hop and emails without case or spaces", () => {
    expect(normalizeEmail("  Ada@Example.TEST ")).toBe("ada@example.test");
    expect(clientAddress(new Headers({ "x-forwarded-for": " 203.0.113.9 , 10.0.0.1" }))).toBe("203.0.113.9");
    expect(clientAddress(new Headers({ "x-forwarded-for": "" }))).toBe("unknown");
    expect(clientAddress(new Headers())).toBe("unknown");
  });
});

describe("isSignInLimited", () => {
  it("records attempts under the normalized email with their time", async () => {
    const t0 = fresh();
    await recordSignInAttempt(" Rec@Example.test", "192.0.2.1", true, t0);
    const row = await getDb().signInAttempt.findFirstOrThrow({ where: { address: "192.0.2.1" } });
    expect([row.email, row.succeeded, row.createdAt.toISOString()]).toEqual(["rec@example.test", true, t0.toISOString()]);
  });

  it("makes the try after the third failure of a pair wait 2 s from the newest failure, to the millisecond", async () => {
    const t0 = fresh();
    await fail("pair@example.test", "198.51.100.1", t0, 2);
    expect(await isSignInLimited("pair@example.test", "198.51.100.1", at(t0, 1))).toBe(false);
    await fail("pair@example.test", "198.51.100.1", at(t0, 500));
    expect(await isSignInLimited("Pair@Example.test ", "198.51.100.1", at(t0, 500 + 1_999))).toBe(true);
    expect(await isSignInLimited("pair@example.test", "198.51.100.1", at(t0, 500 + 2_000))).toBe(false);
    // Another address, or another account at this address, is not slowed.
    expect(await isSignInLimited("pair@example.test", "198.51.100.2", at(t0, 600))).toBe(false);
    expect(await isSignInLimited("other@example.test", "198.51.100.1", at(t0, 600))).toBe(false);
  });

  it("counts a pair's failures from the newest: four of them wait 4 s after the last", async () => {
    const t0 = fresh();
    await fail("four@example.test", "198.51.100.4", t0, 3);
    await fail("four@example.test", "198.51.100.4", at(t0, 100_000));
    expect(await isSignInLimited("four@example.test", "198.51.100.4", at(t0, 103_999))).toBe(true);
    expect(await isSignInLimited("four@example.test", "198.51.100.4", at(t0, 104_000))).toBe(false);
  });

  it("forgets the failures before the newest success within the window, and ignores successes as failures", async () => {
    const t0 = fresh();
    await recordSignInAttempt("ok@example.test", "198.51.100.5", true, t0);
    await fail("ok@example.test", "198.51.100.5", at(t0, 10), 3);
    expect(await isSignInLimited("ok@example.test", "198.51.100.5", at(t0, 20))).toBe(true);
    await recordSignInAttempt("ok@example.test", "198.51.100.5", true, at(t0, 30));
    await recordSignInAttempt("ok@example.test", "198.51.100.5", true, at(t0, 31));
    expect(await isSignInLimited("ok@example.test", "198.51.100.5", at(t0, 40))).toBe(false);
  });

  it("does not count failures from before the window against the pair", async () => {
    const t0 = fresh();
    await fail("old@example.test", "198.51.100.6", t0, 3);
    // The window's start is exclusive for the pair: failures exactly one window old are gone.
    expect(await isSignInLimited("old@example.test", "198.51.100.6", at(t0, SIGN_IN_LIMITS.windowMs))).toBe(false);
    expect(await isSignInLimited("old@example.test", "198.51.100.6", at(t0, 1_999))).toBe(true);
  });

  it("blocks an address at 20 failures across accounts within the window, its start included", async () => {
    const t0 = fresh();
    for (let i = 0; i < 19; i++) await fail(`spray-${i}@example.test`, "192.0.2.50", t0);
    expect(await isSignInLimited("victim@example.test", "192.0.2.50", at(t0, 1))).toBe(false);
    await fail("spray-19@example.test", "192.0.2.50", t0);
    expect(await isSignInLimited("victim@example.test", "192.0.2.50", at(t0, 1))).toBe(true);
    expect(await isSignInLimited("victim@example.test", "192.0.2.50", at(t0, SIGN_IN_LIMITS.windowMs))).toBe(true);
    expect(await isSignInLimited("victim@example.test", "192.0.2.50", at(t0, SIGN_IN_LIMITS.windowMs + 1))).toBe(false);
    expect(await isSignInLimited("victim@example.test", "192.0.2.51", at(t0, 1))).toBe(false);
  });

  it("stops an account at 200 failures from other addresses, but not at 199, and a success clears them", async () => {
    const t0 = fresh();
    const rows = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({ email: "many@example.test", address: `10.9.${(from + i) >> 8}.${(from + i) & 255}`, succeeded: false, createdAt: t0 }));
    await getDb().signInAttempt.createMany({ data: rows(199, 0) });
    expect(await isSignInLimited("many@example.test", "10.10.0.1", at(t0, 1))).toBe(false);
    await getDb().signInAttempt.createMany({ data: rows(1, 199) });
    expect(await isSignInLimited("many@example.test", "10.10.0.1", at(t0, 1))).toBe(true);
    await recordSignInAttempt("many@example.test", "10.10.0.2", true, at(t0, 2));
    expect(await isSignInLimited("many@example.test", "10.10.0.1", at(t0, 3))).toBe(false);
  });

  it("ignores a success from before the window: it does not reach back to failures the window no longer holds", async () => {
    const t0 = fresh();
    await recordSignInAttempt("late@example.test", "10.11.0.1", true, t0);
    await getDb().signInAttempt.createMany({
      data: Array.from({ length: 200 }, (_, i) => ({ email: "late@example.test", address: `10.12.0.${i}`, succeeded: false, createdAt: at(t0, 10) })),
    });
    expect(await isSignInLimited("late@example.test", "10.11.0.1", at(t0, 10 + SIGN_IN_LIMITS.windowMs - 1))).toBe(true);
    expect(await isSignInLimited("late@example.test", "10.11.0.1", at(t0, 10 + SIGN_IN_LIMITS.windowMs))).toBe(false);
  });
});
