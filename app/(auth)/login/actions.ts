"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { signIn } from "@/auth";
import { safeNext } from "@/app/(auth)/form-state";

export interface LoginState {
  error?: string;
  email?: string;
}

export async function login(_prev: LoginState, form: FormData): Promise<LoginState> {
  const email = String(form.get("email") ?? "");
  try {
    await signIn("credentials", {
      email,
      password: String(form.get("password") ?? ""),
      redirectTo: safeNext(String(form.get("next") ?? "/")),
    });
    return {};
  } catch (err) {
    if (err instanceof CredentialsSignin && err.code === "rate_limited") {
      return { error: "Too many sign-in attempts. Wait a little, then try again.", email };
    }
    if (err instanceof AuthError) return { error: "Email or password is incorrect.", email };
    throw err;
  }
}

export async function loginWithGithub(form: FormData) {
  await signIn("github", { redirectTo: safeNext(String(form.get("next") ?? "/")) });
}
