import { isIP } from "node:net";
import { adapterPreset, EGRESS_PRESETS, type EgressPreset } from "@/lib/sandbox/presets";

export const NETWORK_MODES = ["none", "allow-list", "full"] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];

/** One allow-list line: `[METHOD,METHOD ]host`, host either exact or `*.` + a domain. */
export type EgressRule = { host: string; methods: string[] | null };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const METHOD = /^[A-Z]{3,10}$/;

/** Parses an admin's line; returns a message naming what is wrong instead of throwing. */
export function parseEgressRule(line: string): EgressRule | string {
  const parts = line.trim().split(/\s+/);
  if (parts.length === 0 || parts[0] === "" || parts.length > 2) return "must be `host` or `METHODS host`, e.g. `*.example.com` or `GET,HEAD api.example.com`";
  const methods = parts.length === 2 ? parts[0].split(",") : null;
  if (methods && !methods.every((m) => METHOD.test(m))) return "methods are upper-case HTTP verbs separated by commas, e.g. GET,HEAD";
  const host = parts[parts.length - 1].toLowerCase();
  // Accepted so that the proxy, not the form, is what refuses it (the server's ports stay closed).
  if (isIP(host) || host === "localhost") return { host, methods };
  const name = host.startsWith("*.") ? host.slice(2) : host;
  const labels = name.split(".");
  if (host.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
    return "is not a host name (letters, digits and -, at least one dot; a leading *. allows every subdomain)";
  }
  return { host, methods };
}

export function hostMatches(pattern: string, host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  if (pattern.startsWith("*.")) return h.endsWith(pattern.slice(1));
  return h === pattern;
}

export type NetworkPolicy = { mode: NetworkMode; rules: EgressRule[] };

/** The rules a run works under: the project's presets and lines, plus its own CLI's model API. */
export function networkPolicy(settings: { networkMode: string; egressPresets: string[]; egressRules: string[] }, adapter: string): NetworkPolicy {
  const mode = (NETWORK_MODES as readonly string[]).includes(settings.networkMode) ? (settings.networkMode as NetworkMode) : "none";
  const presets = new Set(settings.egressPresets.filter((p): p is EgressPreset => p in EGRESS_PRESETS));
  const own = adapterPreset(adapter);
  if (own) presets.add(own);
  const rules: EgressRule[] = [...presets].flatMap((p) => EGRESS_PRESETS[p].hosts.map((host) => ({ host, methods: null })));
  for (const line of settings.egressRules) {
    const rule = parseEgressRule(line);
    if (typeof rule !== "string") rules.push(rule);
  }
  return { mode, rules };
}

/**
 * Whether a request may leave. HTTPS arrives as CONNECT, which hides the method, so a rule
 * limited to methods admits plain-HTTP requests with those methods only.
 */
export function isEgressAllowed(policy: NetworkPolicy, host: string, method: string): boolean {
  if (policy.mode === "full") return true;
  if (policy.mode === "none") return false;
  return policy.rules.some((r) => hostMatches(r.host, host) && (r.methods === null || r.methods.includes(method.toUpperCase())));
}
