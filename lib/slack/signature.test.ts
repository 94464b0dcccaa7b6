import { describe, expect, it } from "vitest";
import { signatureProblem, slackSignature } from "@/lib/slack/signature";

const secret = "8f742231b10e8888abcd99yyyzzz85a5";
const now = 1_531_420_618_000;
const ts = "1531420618";
const body = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar"
  + "&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN"
  + "&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";

describe("Slack request signatures", () => {
  it("computes Slack's documented v0 signature", () => {
    // The example of Slack's "Verifying requests from Slack" page.
    expect(slackSignature(secret, ts, body)).toBe("v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503");
  });

  it.each([
    ["a good signature", [secret], ts, slackSignature(secret, ts, body), body, null],
    ["the second of two secrets", ["another-secret", secret], ts, slackSignature(secret, ts, body), body, null],
    ["a changed body", [secret], ts, slackSignature(secret, ts, body), `${body}x`, "mismatch"],
    ["another secret", ["another-secret"], ts, slackSignature(secret, ts, body), body, "mismatch"],
    ["no signature", [secret], ts, null, body, "missing"],
    ["no timestamp", [secret], null, slackSignature(secret, ts, body), body, "missing"],
    ["a timestamp that is not a number", [secret], "12a", slackSignature(secret, "12a", body), body, "missing"],
    ["a timestamp 301 s old", [secret], String(Number(ts) - 301), slackSignature(secret, String(Number(ts) - 301), body), body, "stale"],
    ["a timestamp 301 s ahead", [secret], String(Number(ts) + 301), slackSignature(secret, String(Number(ts) + 301), body), body, "stale"],
    ["a timestamp 300 s old", [secret], String(Number(ts) - 300), slackSignature(secret, String(Number(ts) - 300), body), body, null],
    ["no secret at all", [], ts, slackSignature(secret, ts, body), body, "mismatch"],
  ] as const)("%s", (_name, secrets, timestamp, signature, raw, expected) => {
    expect(signatureProblem([...secrets], timestamp, signature, raw, now)).toBe(expected);
  });
});
