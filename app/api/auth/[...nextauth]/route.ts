import type { NextRequest } from "next/server";
import { handlers } from "@/auth";

// A route handler's request URL is `next start`'s own address (localhost:<port>, whatever Host the
// browser or proxy sent; NextRequest even turns 127.0.0.1 into localhost), while Auth.js's server
// actions (signIn) take the origin from the Host header. Each builds the OAuth redirect_uri from
// its origin, and GitHub refuses a code exchanged with a different one (redirect_uri_mismatch), so
// the callback gets a plain Request addressed to the Host header too.
function atRequestedHost(req: NextRequest): NextRequest {
  const host = (req.headers.get("x-forwarded-host") ?? req.headers.get("host"))?.split(",")[0].trim();
  const url = new URL(req.url);
  if (!host || host === url.host) return req;
  const target = new URL(`${url.pathname}${url.search}`, `${url.protocol}//${host}`);
  const request = new Request(target, { method: req.method, headers: req.headers, body: req.body, duplex: "half" } as RequestInit);
  // Beyond the Web Request, next-auth reads only nextUrl's href and origin (when AUTH_URL is set).
  return Object.assign(request, { nextUrl: target }) as unknown as NextRequest;
}

export const GET = (req: NextRequest) => handlers.GET(atRequestedHost(req));
export const POST = (req: NextRequest) => handlers.POST(atRequestedHost(req));
