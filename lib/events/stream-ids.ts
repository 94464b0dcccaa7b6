// Redis stream ids are "<ms>-<seq>"; they order numerically, not as strings ("9-0" < "10-0").
export const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

export function compareStreamIds(a: string, b: string): number {
  const [am, as] = a.split("-").map(BigInt);
  const [bm, bs] = b.split("-").map(BigInt);
  if (am !== bm) return am < bm ? -1 : 1;
  if (as !== bs) return as < bs ? -1 : 1;
  return 0;
}

export interface StreamEntry {
  id: string;
  fields: Record<string, string>;
}

/** ioredis answers XRANGE/XREAD entries as [id, [field, value, …]]. */
export function toEntry([id, flat]: [string, string[]]): StreamEntry {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
  return { id, fields };
}
