import { listProfiles } from "@/lib/profiles/profiles";
import { roleAtLeast } from "@/lib/auth/access";
import { requireViewer } from "@/app/(dashboard)/current";
import { InstalledClis } from "./installed-clis";
import { RunnerClis } from "./runner-clis";
import { ProfileForm } from "./profile-form";

export const dynamic = "force-dynamic";

export default async function ProfilesPage() {
  const viewer = await requireViewer();
  const profiles = await listProfiles(viewer.team.id);
  const canEdit = roleAtLeast(viewer.role, "admin");
  return (
    <>
      <h1>Agent profiles</h1>
      <p className="muted">A profile says which agent CLI runs a prompt and how: adapter, command template, models, and the
        environment variables it may see (everything else is scrubbed).</p>
      <InstalledClis />
      <RunnerClis teamId={viewer.team.id} />
      {profiles.length === 0 && <div className="panel empty"><p>No profiles yet. Create one below, then choose it in a project&apos;s settings.</p></div>}
      <div className="grid">
        {profiles.map((p) => (
          <ProfileForm key={p.id} readOnly={!canEdit} initial={{
            id: p.id, name: p.name, adapter: p.adapter, commandTemplate: p.commandTemplate ?? "", model: p.model ?? "",
            fallbackModel: p.fallbackModel ?? "", completionSignal: p.completionSignal ?? "", envAllowList: p.envAllowList.join(" "), extraArgs: p.extraArgs.join("\n"), permissionMode: p.permissionMode ?? "",
            maxTokens: String(p.maxTokens ?? ""), maxCostUsd: String(p.maxCostUsd ?? ""), maxToolCalls: String(p.maxToolCalls ?? ""), maxTurns: String(p.maxTurns ?? ""), maxRunDurationMs: String(p.maxRunDurationMs ?? ""),
          }} />
        ))}
        {canEdit && <ProfileForm readOnly={false} initial={{ name: "", adapter: "claude", commandTemplate: "", model: "", fallbackModel: "", completionSignal: "", envAllowList: "", extraArgs: "", permissionMode: "", maxTokens: "", maxCostUsd: "", maxToolCalls: "", maxTurns: "", maxRunDurationMs: "" }} />}
      </div>
    </>
  );
}
