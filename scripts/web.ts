// The web server: Next.js behind a few lines that make forwarded headers trustworthy (only a
// proxy listed in TRUSTED_PROXIES may set them). Run instead of `next start` / `next dev`.
import { createServer } from "node:http";
import next from "next";
import { getEnv } from "@/lib/env";
import { parseTrustedProxies, sanitizeForwarded } from "@/lib/http/forwarded";
import { drainable } from "@/lib/http/drain";

const dev = process.argv.includes("--dev");
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const port = Number(arg("-p") ?? process.env.PORT ?? 3000);
const hostname = arg("-H");

const trusted = parseTrustedProxies(getEnv().TRUSTED_PROXIES);
const app = next({ dev, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();
const server = createServer((req, res) => {
  sanitizeForwarded(req.headers, req.socket.remoteAddress, trusted);
  void handle(req, res);
});
const drain = drainable(server);
server.listen(port, hostname, () => console.log(`[web] listening on ${hostname ?? "*"}:${port}`));
// Requests being answered get 10 s (under `npm start`'s 15 s before it kills); open event streams
// and long-polls are cut at once, their clients resume on the next process. A second signal exits.
let stopping = false;
const stop = () => {
  if (stopping) process.exit(0);
  stopping = true;
  void drain(10_000).then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
