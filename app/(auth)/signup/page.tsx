import Link from "next/link";
import { isFirstRun } from "@/lib/auth/sign-up";
import { SignUpForm } from "./signup-form";

export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  const open = await isFirstRun();
  return (
    <main>
      <div className="panel auth-card">
        {open ? (
          <>
            <h1>Set up Ringmaster</h1>
            <p className="muted">You are the first person here: you will own the first team.</p>
            <SignUpForm />
          </>
        ) : (
          <>
            <h1>Sign-up is closed</h1>
            <p>This Ringmaster already has users. Ask an owner or admin of your team for an invitation link.</p>
            <p><Link href="/login">Sign in</Link></p>
          </>
        )}
      </div>
    </main>
  );
}
