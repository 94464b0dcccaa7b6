const first = (value: string | null) => value?.split(",")[0].trim() || null;

/**
 * A cookie-authenticated change must come from a page of ours: the Origin's scheme and host equal
 * the ones this request was addressed to. Forwarded headers are believed here because the web
 * server drops them unless a trusted proxy sent them (lib/http/forwarded.ts).
 */
export function isSameOrigin(origin: string | null, headers: Headers, requestUrl: string): boolean {
  const from = origin ? URL.parse(origin) : null;
  if (!from || from.origin === "null") return false;
  const url = new URL(requestUrl);
  const host = first(headers.get("x-forwarded-host")) ?? headers.get("host") ?? url.host;
  const proto = first(headers.get("x-forwarded-proto")) ?? url.protocol.replace(/:$/, "");
  return from.host === host && from.protocol === `${proto}:`;
}
