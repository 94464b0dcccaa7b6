"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { auth, signIn } from "@/auth";
import { getEnv } from "@/lib/env";
import { acceptInvitation, InvitationSignInError } from "@/lib/teams/accept";
import { clientAddress } from "@/lib/auth/rate-limit";
import { AccessError } from "@/lib/auth/access";
import { INVITE_COOKIE } from "@/lib/teams/oauth";
import { TEAM_COOKIE } from "@/lib/teams/current";
import { accountInput, fieldErrors } from "@/lib/auth/schemas";
import { text, type FormState } from "@/app/(auth)/form-state";

/** Someone who just joined a team lands in it, not in a team they belonged to before. */
async function workIn(teamId: string) {
  const secure = new URL(getEnv().APP_URL).protocol === "https:";
  (await cookies()).set(TEAM_COOKIE, teamId, { httpOnly: true, sameSite: "lax", maxAge: 31_536_000, path: "/", secure });
}

function explain(err: unknown, values: Record<string, string>): FormState {
  if (err instanceof z.ZodError) return { errors: fieldErrors(err), values };
  if (err instanceof AccessError) return { errors: { form: "This invitation is not valid any more. Ask for a new link." }, values };
  if (err instanceof InvitationSignInError) {
    return { errors: { form: err.limited ? "Too many sign-in attempts. Wait a little, then try again." : "Email or password is incorrect." }, values };
  }
  throw err;
}

/** A new account from the invitation, then a session for it. */
export async function acceptWithAccount(token: string, _prev: FormState, form: FormData): Promise<FormState> {
  const raw = { name: text(form, "name"), email: text(form, "email"), password: text(form, "password") };
  const values = { name: raw.name, email: raw.email };
  const parsed = accountInput.safeParse(raw);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    const joined = await acceptInvitation(token, raw, new Date(), clientAddress(await headers()));
    await workIn(joined.teamId);
  } catch (err) {
    return explain(err, values);
  }
  await signIn("credentials", { email: parsed.data.email, password: raw.password, redirectTo: "/" });
  return {};
}

/** The signed-in person joins the inviting team with their account. */
export async function acceptAsSignedIn(token: string, _prev: FormState): Promise<FormState> {
  const userId = (await auth())?.user?.id;
  if (!userId) return { errors: { form: "Your session has ended: sign in again." } };
  try {
    const joined = await acceptInvitation(token, { userId });
    await workIn(joined.teamId);
  } catch (err) {
    return explain(err, {});
  }
  (await cookies()).delete(INVITE_COOKIE);
  redirect("/");
}

/** GitHub sign-in for an invitee: the cookie tells the sign-in callback which invitation lets them in. */
export async function acceptWithGithub(token: string) {
  const secure = new URL(getEnv().APP_URL).protocol === "https:";
  (await cookies()).set(INVITE_COOKIE, token, { httpOnly: true, sameSite: "lax", maxAge: 900, path: "/", secure });
  await signIn("github", { redirectTo: `/invite/${token}` });
}
