"use client";

import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";

export function AccountPanel({ email }: { email: string }) {
  const [error, setError] = useState<string | null>(null);
  async function everywhere() {
    if (!confirm("Sign out of every browser and device, this one included?")) return;
    try {
      await api("/api/account/sign-out-everywhere", { method: "POST" });
      window.location.assign("/login");
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <section className="panel stack" aria-labelledby="account-h">
      <h2 id="account-h">Your account</h2>
      <p>Signed in as <strong>{email}</strong>.</p>
      <div><button type="button" className="secondary" onClick={everywhere}>Sign out everywhere</button></div>
      {error && <p className="error" role="alert">{error}</p>}
    </section>
  );
}
