"use client";

import { useLiveStatus } from "@/app/(dashboard)/_live/live-provider";

/** Says when the live stream dropped; the provider reconnects by itself. */
export function LiveIndicator() {
  const status = useLiveStatus();
  const label = status === "open" ? "live" : status === "connecting" ? "connecting…" : "reconnecting…";
  return <span className={`live-dot ${status}`} role="status" data-testid="live-status" title={`Live updates: ${label}`}>{label}</span>;
}
