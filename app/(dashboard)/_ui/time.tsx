"use client";

import { useEffect, useState } from "react";

/** A clock for elapsed times: local re-renders only, no network. */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

export function Ago({ at }: { at: string | Date | null }) {
  const now = useNow(5000);
  if (!at) return <span className="muted">never</span>;
  const t = new Date(at);
  const ms = now - t.getTime();
  // Past two days an hour count stops meaning much: say days.
  const said = ms >= 172_800_000 ? `${Math.floor(ms / 86_400_000)} days` : formatDuration(ms);
  return <time dateTime={t.toISOString()} title={t.toLocaleString()}>{said} ago</time>;
}
