export const LOCAL_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/ringmaster";

export function databaseUrl() {
  return process.env.DATABASE_URL || LOCAL_DATABASE_URL;
}

// CREATE/DROP DATABASE must run from another database on the same server.
export function adminUrl(url: string) {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  return admin.toString();
}
