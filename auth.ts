import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import { z } from "zod";
import { getEnv } from "@/lib/env";
import { checkCredentials, isSessionCurrent } from "@/lib/auth/credentials";

const credentialsSchema = z.object({ email: z.email(), password: z.string().min(1).max(1000) });

class BadCredentials extends CredentialsSignin {
  code = "invalid_credentials";
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const env = getEnv();
  return {
    secret: env.AUTH_SECRET,
    trustHost: true,
    session: { strategy: "jwt" },
    pages: { signIn: "/login" },
    providers: [
      Credentials({
        credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
        async authorize(raw) {
          const parsed = credentialsSchema.safeParse(raw);
          if (!parsed.success) throw new BadCredentials();
          const user = await checkCredentials(parsed.data.email, parsed.data.password);
          if (!user) throw new BadCredentials();
          return user;
        },
      }),
      ...(env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET
        ? [GitHub({ clientId: env.AUTH_GITHUB_ID, clientSecret: env.AUTH_GITHUB_SECRET })]
        : []),
    ],
    callbacks: {
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
