import { describe, expect, it } from "vitest";
import { hostMatches, isEgressAllowed, networkPolicy, parseEgressRule } from "@/lib/sandbox/policy";

const SHAPE = "must be `host` or `METHODS host`, e.g. `*.example.com` or `GET,HEAD api.example.com`";
const METHODS = "methods are upper-case HTTP verbs separated by commas, e.g. GET,HEAD";
const NOT_A_HOST = "is not a host name (letters, digits and -, at least one dot; a leading *. allows every subdomain)";
// 253 characters, the longest a DNS name may be: three 63-character labels and one of 61.
const LONGEST = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`;

describe("parseEgressRule", () => {
  it.each([
    ["*.example.com", { host: "*.example.com", methods: null }],
    ["API.Example.com", { host: "api.example.com", methods: null }],
    ["GET,HEAD registry.example.org", { host: "registry.example.org", methods: ["GET", "HEAD"] }],
    ["10.0.0.7", { host: "10.0.0.7", methods: null }],
    ["::1", { host: "::1", methods: null }],
    ["localhost", { host: "localhost", methods: null }],
    ["  GET   api.example.com  ", { host: "api.example.com", methods: ["GET"] }],
    ["GETGETGETG a.example.com", { host: "a.example.com", methods: ["GETGETGETG"] }],
    [LONGEST, { host: LONGEST, methods: null }],
    ["x.example-1.com", { host: "x.example-1.com", methods: null }],
  ])("accepts %s", (line, rule) => expect(parseEgressRule(line)).toEqual(rule));

  it.each(["", "intranet", "*.com.", "a b c", "get example.com", "exa_mple.com", "-bad.example.com", "*.*.example.com"])("refuses %j", (line) => {
    expect(typeof parseEgressRule(line)).toBe("string");
  });

  it.each([
    ["", SHAPE],
    ["   ", SHAPE],
    ["a b c", SHAPE],
    ["get example.com", METHODS],
    ["GET,get example.com", METHODS],
    ["xGET example.com", METHODS],
    ["GETs example.com", METHODS],
    ["GE example.com", METHODS],
    ["GETGETGETGE example.com", METHODS],
    ["intranet", NOT_A_HOST],
    [`${LONGEST}d`, NOT_A_HOST],
    [`${"a".repeat(64)}.example.com`, NOT_A_HOST],
    ["a-.example.com", NOT_A_HOST],
    ["-a.example.com", NOT_A_HOST],
    ["a.-example.com", NOT_A_HOST],
  ])("names what is wrong with %j", (line, message) => expect(parseEgressRule(line)).toBe(message));
});

describe("hostMatches", () => {
  it.each([
    ["api.example.com", "api.example.com", true],
    ["api.example.com", "API.Example.COM.", true],
    ["api.example.com", "xapi.example.com", false],
    ["api.example.com", "example.com", false],
    ["*.example.com", "a.example.com", true],
    ["*.example.com", "a.example.com.", true],
    ["*.example.com", "example.com", false],
    ["*.example.com", "aexample.com", false],
  ])("%s against %s: %s", (pattern, host, matches) => expect(hostMatches(pattern, host)).toBe(matches));
});

describe("networkPolicy", () => {
  it("lists the presets' hosts, then the project's valid lines; unknown presets and bad lines are left out", () => {
    expect(networkPolicy({ networkMode: "allow-list", egressPresets: ["pypi", "no-such-preset"], egressRules: ["bad line here", "GET x.example.com"] }, "codex")).toEqual({
      mode: "allow-list",
      rules: [
        { host: "pypi.org", methods: null }, { host: "files.pythonhosted.org", methods: null },
        { host: "api.openai.com", methods: null }, { host: "auth.openai.com", methods: null },
        { host: "x.example.com", methods: ["GET"] },
      ],
    });
  });

  it("takes an unknown network mode as none", () => {
    expect(networkPolicy({ networkMode: "open", egressPresets: [], egressRules: [] }, "demo")).toEqual({ mode: "none", rules: [] });
  });
});

describe("isEgressAllowed", () => {
  const settings = { networkMode: "allow-list", egressPresets: ["npm"], egressRules: ["*.example.com", "GET plain.example.org"] };

  it("admits preset hosts, wildcard subdomains and the run's own model API only", () => {
    const policy = networkPolicy(settings, "claude");
    expect(isEgressAllowed(policy, "registry.npmjs.org", "CONNECT")).toBe(true);
    expect(isEgressAllowed(policy, "api.anthropic.com", "CONNECT")).toBe(true);
    expect(isEgressAllowed(policy, "a.b.example.com", "CONNECT")).toBe(true);
    expect(isEgressAllowed(policy, "example.com", "CONNECT")).toBe(false);
    expect(isEgressAllowed(policy, "evilexample.com", "CONNECT")).toBe(false);
    expect(isEgressAllowed(policy, "api.openai.com", "CONNECT")).toBe(false);
    expect(isEgressAllowed(networkPolicy(settings, "demo"), "api.anthropic.com", "CONNECT")).toBe(false);
  });

  it("limits a rule with methods to those plain-HTTP methods", () => {
    const policy = networkPolicy(settings, "demo");
    expect(isEgressAllowed(policy, "plain.example.org", "GET")).toBe(true);
    expect(isEgressAllowed(policy, "plain.example.org", "POST")).toBe(false);
    expect(isEgressAllowed(policy, "plain.example.org", "CONNECT")).toBe(false);
  });

  it("admits everything in full mode and nothing in none mode", () => {
    expect(isEgressAllowed(networkPolicy({ ...settings, networkMode: "full" }, "demo"), "anything.test", "CONNECT")).toBe(true);
    expect(isEgressAllowed(networkPolicy({ ...settings, networkMode: "none" }, "claude"), "api.anthropic.com", "CONNECT")).toBe(false);
  });
});
