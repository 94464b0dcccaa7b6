// Client-side calls to our JSON API; errors keep the field the server named.
export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly field?: string, readonly code?: string, readonly fields: Record<string, string> = field ? { [field]: message } : {}) {
    super(message);
  }
}

export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(path, {
    method: init.method ?? "GET",
    headers: init.body === undefined ? undefined : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, data?.error?.message ?? `request failed (${res.status})`, data?.error?.field, data?.error?.code, data?.error?.fields);
  return data as T;
}
