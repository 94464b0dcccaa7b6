import { LoginForm } from "./login-form";

export default function LoginPage() {
  return (
    <main>
      <div className="panel auth-card">
        <h1>Sign in to Ringmaster</h1>
        <LoginForm />
      </div>
    </main>
  );
}
