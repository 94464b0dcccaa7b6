"use client";

import { createContext, useContext, useEffect, useRef, useState } from "react";
import { useQueryClient, type InvalidateQueryFilters } from "@tanstack/react-query";
import type { LiveEvent } from "@/lib/events/wire";
import { invalidationsFor } from "@/app/(dashboard)/_data/query-keys";
import { openLiveSource, type LiveStatus } from "./live-source";

type Listener = (event: LiveEvent) => void;
interface Live {
  status: LiveStatus;
  listeners: Set<Listener>;
}

const LiveContext = createContext<Live | null>(null);
// A burst (a catch-up after reconnecting, a busy tick) becomes one refetch per query.
const BATCH_MS = 50;

/**
 * The tab's one EventSource on the team stream. Each event marks the affected queries
 * stale; `ready` (first connection) and `reset` (a gap the stream could not replay)
 * mark everything stale, since changes before the stream was followed are unknown.
 */
export function LiveProvider({ children, url = "/api/events" }: { children: React.ReactNode; url?: string }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>("connecting");
  const listeners = useRef(new Set<Listener>()).current;

  useEffect(() => {
    const pending: InvalidateQueryFilters[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      const seen = new Set<string>();
      for (const f of pending.splice(0)) {
        const id = JSON.stringify([f.queryKey, f.exact]);
        if (!seen.has(id)) { seen.add(id); void queryClient.invalidateQueries(f); }
      }
    };
    const source = openLiveSource({
      url,
      events: ["ready", "reset"],
      onStatus: setStatus,
      onEvent: (name, data) => {
        if (name !== "message") { void queryClient.invalidateQueries(); return; }
        const event = JSON.parse(data) as LiveEvent;
        pending.push(...invalidationsFor(event));
        timer ??= setTimeout(flush, BATCH_MS);
        for (const l of listeners) l(event);
      },
    });
    return () => { source.stop(); if (timer) clearTimeout(timer); };
  }, [queryClient, url, listeners]);

  return <LiveContext.Provider value={{ status, listeners }}>{children}</LiveContext.Provider>;
}

function useLive(): Live {
  const live = useContext(LiveContext);
  if (!live) throw new Error("LiveProvider is missing above this component (app/(dashboard)/layout.tsx)");
  return live;
}

/** connecting | open | reconnecting: show the user when the stream dropped. */
export function useLiveStatus(): LiveStatus {
  return useLive().status;
}

/** Every team event as it arrives (toasts, highlights); the query cache is already handled. */
export function useLiveEvents(onEvent: Listener): void {
  const { listeners } = useLive();
  const latest = useRef(onEvent);
  useEffect(() => { latest.current = onEvent; });
  useEffect(() => {
    const l: Listener = (e) => latest.current(e);
    listeners.add(l);
    return () => { listeners.delete(l); };
  }, [listeners]);
}
