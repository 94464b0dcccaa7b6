import { readFileSync, writeFileSync } from "node:fs";
// The runner's only way to Ringmaster: HTTP with its runner token. It holds no database or
// Redis credentials. The token goes in the Authorization header and nowhere else (never logged).

export class ApiError extends Error {
  constructor(readonly status: number, readonly body: unknown, what: string) {
    super(`${what} answered ${status}: ${JSON.stringify(body)}`);
  }
}

export interface RunnerApiOptions {
  url: string;
  token: string;
  agentId: string;
  /** Lines for the operator (no secrets are ever passed here). */
  say: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

const retryable = (status: number) => status === 502 || status === 503 || status === 504 || status === 500 || status === 429;

/**
 * Calls the runner API. A server that is restarting or unreachable is waited out with backoff
 * (1 s doubling to 15 s), so a runner outlives a deploy; any other answer is returned or thrown.
 */
export class RunnerApi {
  private readonly sleep: (ms: number) => Promise<void>;
  constructor(private readonly opts: RunnerApiOptions) {
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  async call(method: "GET" | "POST", path: string, body?: unknown, signal?: AbortSignal): Promise<{ status: number; body: unknown }> {
    let delay = 1000;
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(new URL(path, this.opts.url), {
          method,
          headers: { authorization: `Bearer ${this.opts.token}`, "x-agent-id": this.opts.agentId, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal,
        });
        const text = await res.text();
        const parsed = text ? JSON.parse(text) : null;
        if (!retryable(res.status)) return { status: res.status, body: parsed };
        this.opts.say(`server answered ${res.status} to ${method} ${path}; retrying in ${delay} ms`);
      } catch (err) {
        if (signal?.aborted) throw err;
        if (attempt === 1 || delay >= 15_000) this.opts.say(`server unreachable (${(err as Error).message}); retrying in ${delay} ms`);
      }
      await this.sleep(delay);
      delay = Math.min(delay * 2, 15_000);
    }
  }

  /**
   * Moves a git bundle: GET saves the answer's bytes to `file`, POST sends `file` as the body. A
   * server that is restarting is waited out as for `call`; any other failure is thrown.
   */
  async bundle(method: "GET" | "POST", path: string, file: string): Promise<unknown> {
    let delay = 1000;
    for (;;) {
      try {
        const res = await fetch(new URL(path, this.opts.url), {
          method,
          headers: { authorization: `Bearer ${this.opts.token}`, "x-agent-id": this.opts.agentId, ...(method === "POST" ? { "content-type": "application/x-git-bundle" } : {}) },
          body: method === "POST" ? readFileSync(file) : undefined,
        });
        if (!retryable(res.status)) {
          if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null), `${method} ${path}`);
          if (method === "GET") { writeFileSync(file, Buffer.from(await res.arrayBuffer())); return null; }
          return await res.json();
        }
        this.opts.say(`server answered ${res.status} to ${method} ${path}; retrying in ${delay} ms`);
      } catch (err) {
        if (err instanceof ApiError) throw err;
        this.opts.say(`server unreachable (${(err as Error).message}); retrying in ${delay} ms`);
      }
      await this.sleep(delay);
      delay = Math.min(delay * 2, 15_000);
    }
  }

  /** A call that must succeed with one of `ok`; anything else is thrown with its answer. */
  async expect<T>(method: "GET" | "POST", path: string, ok: number[], body?: unknown, signal?: AbortSignal): Promise<T> {
    const res = await this.call(method, path, body, signal);
    if (!ok.includes(res.status)) throw new ApiError(res.status, res.body, `${method} ${path}`);
    return res.body as T;
  }
}
