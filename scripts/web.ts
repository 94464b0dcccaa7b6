// The web server: Next.js behind a few lines that make forwarded headers trustworthy (only a
// proxy listed in TRUSTED_PROXIES may set them). Run instead of `next start` / `next dev`.
import { createServer } from "node:http";
import next from "next";
import { getEnv } from "@/lib/env";
import { parseTrustedProxies, sanitizeForwarded } from "@/lib/http/forwarded";

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
server.listen(port, hostname, () => console.log(`[web] listening on ${hostname ?? "*"}:${port}`));
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
