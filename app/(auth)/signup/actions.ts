"use server";

import { signIn } from "@/auth";
import { createFirstOwner, SignUpClosed } from "@/lib/auth/sign-up";
import { fieldErrors, signUpInput } from "@/lib/auth/schemas";
import { text, type FormState } from "@/app/(auth)/form-state";

export async function signUp(_prev: FormState, form: FormData): Promise<FormState> {
  const raw = { name: text(form, "name"), email: text(form, "email"), password: text(form, "password"), teamName: text(form, "teamName") };
  const values = { name: raw.name, email: raw.email, teamName: raw.teamName };
  const parsed = signUpInput.safeParse(raw);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    await createFirstOwner(raw);
  } catch (err) {
    if (err instanceof SignUpClosed) return { errors: { form: "Sign-up is closed: this Ringmaster already has an owner. Ask for an invitation link." }, values };
    throw err;
  }
  await signIn("credentials", { email: parsed.data.email, password: raw.password, redirectTo: "/" });
  return {};
}
