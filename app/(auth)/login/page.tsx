import Link from "next/link";
import { githubEnabled } from "@/auth";
import { isFirstRun } from "@/lib/auth/sign-up";
import { loginWithGithub } from "./actions";
import { safeNext } from "@/app/(auth)/form-state";
import { LoginForm } from "./login-form";

export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string; error?: string }> }) {
  const { next: rawNext, error } = await searchParams;
  const next = safeNext(rawNext ?? "/");
  const firstRun = await isFirstRun();
  return (
    <main>
      <div className="panel auth-card">
        <h1>Sign in to Ringmaster</h1>
        {firstRun && (
          <p className="notice">No one has signed up yet. <Link href="/signup">Create the first account</Link>.</p>
        )}
        {error === "AccessDenied" && <p className="error" role="alert">That GitHub account is not a member here. Ask for an invitation link.</p>}
        <LoginForm next={next} />
        {githubEnabled() && (
          <form action={loginWithGithub} className="alt-sign-in">
            <input type="hidden" name="next" value={next} />
            <button type="submit" className="secondary">Sign in with GitHub</button>
          </form>
        )}
      </div>
    </main>
  );
}
