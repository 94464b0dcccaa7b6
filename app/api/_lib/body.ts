export class TooLarge extends Error {}

/**
 * The body as text, read chunk by chunk and abandoned past `maxBytes`: a chunked request has no
 * Content-Length to refuse up front, and buffering it whole first would let a sender fill memory.
 */
export async function readTextCapped(req: Request, maxBytes: number): Promise<string> {
  if (Number(req.headers.get("content-length") ?? 0) > maxBytes) throw new TooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new TooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
