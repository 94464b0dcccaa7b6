import { PROXY_PORT } from "@/lib/sandbox/bwrap";

/**
 * A shell command that sends one request line to the sandbox's proxy bridge and exits 0 as
 * soon as the answer contains `want`, 1 when the connection closes without it: no timeouts.
 * Usage inside the sandbox: `node -e "$PROBE" 'CONNECT host:443 HTTP/1.1' ' 200 '`.
 */
export const PROXY_PROBE_JS = [
  'const [request, want] = process.argv.slice(1);',
  `const s = require("net").connect(${PROXY_PORT}, "127.0.0.1", () => s.write(request + "\\r\\nHost: probe\\r\\n\\r\\n"));`,
  'let seen = "";',
  's.on("data", (d) => { seen += d; if (seen.includes(want)) process.exit(0); });',
  's.on("close", () => process.exit(1));',
  's.on("error", () => process.exit(1));',
].join(" ");
