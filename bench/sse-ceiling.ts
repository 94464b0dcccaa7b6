// bench:sse's ceiling: the least a process can do to fan a team's Redis stream out to SSE clients.
// A bare node:http server with one XREAD BLOCK loop on the stream, writing each entry's bytes to
// every open response: no framework, no auth, no per-client filter or resume. Run by bench/sse.ts
// as a child process, so its event loop is its own as `next start`'s is.
// Args: <port> <redis url> <stream key>. Prints "listening" once clients can connect.
import http from "node:http";
import { Redis } from "ioredis";

const [port, redisUrl, key] = process.argv.slice(2);
const clients = new Set<http.ServerResponse>();
const redis = new Redis(redisUrl);
const headers = { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive" };

let cursor = (await redis.xrevrange(key, "+", "-", "COUNT", 1))[0]?.[0] ?? "0-0";

const server = http.createServer((req, res) => {
  res.writeHead(200, headers);
  res.write(`id: ${cursor}\nevent: ready\ndata: {}\n\n`);
  clients.add(res);
  req.on("close", () => clients.delete(res));
});
server.listen(Number(port), "127.0.0.1", () => console.log("listening"));

type Reply = [string, [string, string[]][]][] | null;
for (;;) {
  const reply = (await redis.xread("COUNT", 1000, "BLOCK", 5000, "STREAMS", key, cursor)) as Reply;
  for (const [, entries] of reply ?? []) {
    for (const [id, fields] of entries) {
      cursor = id;
      const bytes = Buffer.from(`id: ${id}\ndata: ${JSON.stringify({ ...JSON.parse(fields[1]), id })}\n\n`);
      for (const res of clients) res.write(bytes);
    }
  }
}
