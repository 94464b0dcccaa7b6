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

export function Nav() {
  return (
    <nav className="nav" aria-label="Sections">
      {links.map((l) => <Link key={l.href} href={l.href}>{l.label}</Link>)}
    </nav>
  );
}
