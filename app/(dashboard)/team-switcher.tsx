"use client";

import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

interface Team { id: string; name: string; role: string }

// A switch reloads the dashboard from its start page: every cached query, the live stream and the
// page itself belonged to the other team (the page may be one of its projects).
const reloadHome = () => window.location.assign("/");

/** The team the dashboard shows, and the way to another team of the person's. */
export function TeamSwitcher({ teams, currentId }: { teams: Team[]; currentId: string }) {
  const change = useApiMutation((teamId: string) => api("/api/teams/current", { method: "PUT", body: { teamId } }), { onSuccess: reloadHome });
  if (teams.length < 2) return <span className="muted team-name">{teams.find((t) => t.id === currentId)?.name}</span>;
  return (
    <label className="team-switcher">
      <select aria-label="Team" value={currentId} disabled={change.pending} onChange={(e) => change.mutate(e.target.value)}>
        {teams.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
      </select>
      {change.error && <small className="error" role="alert">{change.error.message}</small>}
    </label>
  );
}
