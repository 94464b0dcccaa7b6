import pg from "pg";

function quoteName(name: string) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Invalid database name: ${name}`);
  return `"${name}"`;
}

async function onServer(adminUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// Returns the new database's URL: the admin URL with its database swapped.
export async function createDatabase(adminUrl: string, name: string) {
  await onServer(adminUrl, `CREATE DATABASE ${quoteName(name)}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(adminUrl: string, name: string) {
  await onServer(adminUrl, `DROP DATABASE IF EXISTS ${quoteName(name)} WITH (FORCE)`);
}
