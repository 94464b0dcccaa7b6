import { PrismaAdapter } from "@auth/prisma-adapter";
import type { Adapter, AdapterAccount } from "next-auth/adapters";
import { getDb } from "@/lib/db";

/**
 * Auth.js's Prisma adapter, minus the provider's tokens: a GitHub sign-in needs only the link
 * between the GitHub account and the user, and nothing here calls GitHub as the person, so
 * OAuth access, refresh and id tokens are never stored (nothing to leak from the database).
 */
export function authAdapter(): Adapter {
  const base = PrismaAdapter(getDb() as never);
  return {
    ...base,
    linkAccount: (account: AdapterAccount) =>
      base.linkAccount!({ ...account, access_token: undefined, refresh_token: undefined, id_token: undefined, session_state: undefined }),
  };
}
