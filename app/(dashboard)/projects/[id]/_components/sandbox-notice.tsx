import { getEnv } from "@/lib/env";
import { readSandboxStatus } from "@/lib/sandbox/status-store";

/**
 * How this project's agents will run, from the workers' last sandbox self-test: a warning
 * whenever they may run unsandboxed or would be refused; on the settings page also when all is well.
 */
export async function SandboxNotice({ unsandboxed, always = false }: { unsandboxed: boolean; always?: boolean }) {
  const status = await readSandboxStatus();
  // The operator decides whether a project's opt-in can take effect at all.
  const optInAllowed = getEnv().SANDBOX_UNSANDBOXED_OPT_IN === "on";
  if (!status) return always ? <p className="notice small muted" data-testid="sandbox-notice">No worker has reported its sandbox self-test yet.</p> : null;
  if (!status.ok) {
    return (
      <p className="notice warn" role="alert" data-testid="sandbox-notice">
        The agent sandbox is unavailable on the workers ({status.reason}).{" "}
        {unsandboxed && optInAllowed
          ? <strong>This project&apos;s agents run UNSANDBOXED, with the server&apos;s own rights, as an admin chose.</strong>
          : unsandboxed
            ? "This project opted into unsandboxed runs, but the operator has not allowed that (SANDBOX_UNSANDBOXED_OPT_IN), so its runs are refused until the sandbox is fixed."
            : "This project's runs are refused until it is fixed, or until an admin opts the project into unsandboxed runs where the operator allows it."}
      </p>
    );
  }
  if (unsandboxed) {
    return (
      <p className="notice warn" data-testid="sandbox-notice">
        An admin opted this project into unsandboxed runs. The sandbox works on the workers, so agents still run confined;
        they would run unsandboxed if it stopped working{optInAllowed ? "" : " and the operator allowed it (SANDBOX_UNSANDBOXED_OPT_IN)"}.
      </p>
    );
  }
  return always ? <p className="notice small muted" data-testid="sandbox-notice">Agents run in the sandbox: the workers&apos; self-test passed at {status.at}.</p> : null;
}
