import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface GitHttpRequest {
  method: string;
  path: string;
  service: string | null;
  authorized: boolean;
}

/**
 * The double of GitHub's git endpoint: git's smart HTTP protocol, served by `git http-backend`
 * (git's own CGI server) over the double's bare repositories, behind GitHub's rule that a token
 * comes as Basic auth (`x-access-token:<token>`). A request without the token gets 401 and never
 * reaches git, so a fetch or push that succeeds here carried it.
 */
export async function startGitHttp(root: string, token: string): Promise<{ url: string; requests: GitHttpRequest[]; stop: () => Promise<void> }> {
  const expected = `Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
  const requests: GitHttpRequest[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, "http://127.0.0.1");
    const authorized = req.headers.authorization === expected;
    const service = url.searchParams.get("service") ?? (/\/(git-[a-z-]+)$/.exec(url.pathname)?.[1] ?? null);
    requests.push({ method: req.method!, path: url.pathname, service, authorized });
    if (!authorized) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="GitHub"' }).end();
      return;
    }
    const cgi = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: "1",
        // An authenticated user may push (http-backend's receive-pack needs REMOTE_USER).
        REMOTE_USER: "x-access-token", REMOTE_ADDR: "127.0.0.1",
        REQUEST_METHOD: req.method, PATH_INFO: decodeURIComponent(url.pathname), QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers["content-type"] ?? "", HTTP_CONTENT_ENCODING: req.headers["content-encoding"] ?? "",
        HTTP_GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "ignore"],
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let sentHead = false;
    cgi.stdout.on("data", (chunk: Buffer) => {
      if (sentHead) { res.write(chunk); return; }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.subarray(0, end).toString().split("\r\n")) {
        const [name, ...rest] = line.split(":");
        const value = rest.join(":").trim();
        if (name.toLowerCase() === "status") status = Number(value.split(" ")[0]);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      sentHead = true;
      res.write(head.subarray(end + 4));
    });
    cgi.on("close", () => { if (!sentHead) res.writeHead(500); res.end(); });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    stop: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
