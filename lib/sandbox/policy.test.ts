import { describe, expect, it } from "vitest";
import { isEgressAllowed, networkPolicy, parseEgressRule } from "@/lib/sandbox/policy";

describe("parseEgressRule", () => {
  it.each([
    ["*.example.com", { host: "*.example.com", methods: null }],
    ["API.Example.com", { host: "api.example.com", methods: null }],
    ["GET,HEAD registry.example.org", { host: "registry.example.org", methods: ["GET", "HEAD"] }],
    ["10.0.0.7", { host: "10.0.0.7", methods: null }],
  ])("accepts %s", (line, rule) => expect(parseEgressRule(line)).toEqual(rule));

  it.each(["", "intranet", "*.com.", "a b c", "get example.com", "exa_mple.com", "-bad.example.com", "*.*.example.com"])("refuses %j", (line) => {
    expect(typeof parseEgressRule(line)).toBe("string");
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
