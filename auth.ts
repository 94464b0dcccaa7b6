import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import { cookies } from "next/headers";
import { z } from "zod";
import { getEnv } from "@/lib/env";
import { authAdapter } from "@/lib/auth/adapter";
import { isSessionCurrent } from "@/lib/auth/credentials";
import { clientAddress } from "@/lib/auth/rate-limit";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { INVITE_COOKIE, mayUseOAuth } from "@/lib/teams/oauth";

const credentialsSchema = z.object({ email: z.email(), password: z.string().min(1).max(1000) });

class BadCredentials extends CredentialsSignin {
  code = "invalid_credentials";
}

class TooManyAttempts extends CredentialsSignin {
  code = "rate_limited";
}

export const githubEnabled = () => Boolean(getEnv().AUTH_GITHUB_ID && getEnv().AUTH_GITHUB_SECRET);

export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const env = getEnv();
  return {
    secret: env.AUTH_SECRET,
    trustHost: true,
    // Behind https the session cookie must never travel over plain http.
    useSecureCookies: new URL(env.APP_URL).protocol === "https:",
    // The adapter stores users and linked GitHub accounts; sessions stay JWTs so that
    // "sign out everywhere" is one timestamp and the credentials provider works.
    adapter: authAdapter(),
    session: { strategy: "jwt", maxAge: env.AUTH_SESSION_MAX_AGE_S },
    pages: { signIn: "/login", error: "/login" },
    providers: [
      Credentials({
        credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
        async authorize(raw, request) {
          const parsed = credentialsSchema.safeParse(raw);
          if (!parsed.success) throw new BadCredentials();
          const result = await signInWithPassword(parsed.data.email, parsed.data.password, clientAddress(request.headers));
          if (!result.ok) throw result.reason === "limited" ? new TooManyAttempts() : new BadCredentials();
          return result.user;
        },
      }),
      ...(env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET
        ? [GitHub({
            clientId: env.AUTH_GITHUB_ID, clientSecret: env.AUTH_GITHUB_SECRET,
            ...(env.AUTH_GITHUB_URL ? { enterprise: { baseUrl: env.AUTH_GITHUB_URL } } : {}),
          })]
        : []),
    ],
    callbacks: {
      async signIn({ account, user }) {
        if (!account || account.type === "credentials") return true;
        const invite = (await cookies()).get(INVITE_COOKIE)?.value;
        return mayUseOAuth(account.provider, account.providerAccountId, user.email, invite);
      },
      async jwt({ token, user }) {
        if (user?.id) token.sub = user.id;
        if (token.sub && typeof token.iat === "number" && !(await isSessionCurrent(token.sub, token.iat))) {
          return null;
        }
        return token;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
  };
});
