import Link from "next/link";

// The dashboard's sections; each area adds its own entry here.
const links = [
  { href: "/", label: "Projects" },
  { href: "/profiles", label: "Agents" },
  { href: "/threads", label: "Threads" },
  { href: "/runners", label: "Runners" },
  { href: "/approvals", label: "Approvals" },
  { href: "/usage", label: "Usage" },
  { href: "/team", label: "Team" },
  { href: "/audit", label: "Audit" },
];

/** `pendingApprovals`: decisions waiting in the current team, shown beside Approvals. */
export function Nav({ pendingApprovals }: { pendingApprovals: number }) {
  return (
    <nav className="nav" aria-label="Sections">
      {links.map((l) => (
        <Link key={l.href} href={l.href}>
          {l.label}
          {l.href === "/approvals" && pendingApprovals > 0 && (
            <span className="count" data-testid="pending-approvals" aria-label={`${pendingApprovals} waiting`}>{pendingApprovals}</span>
          )}
        </Link>
      ))}
    </nav>
  );
}
