import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = { title: "Ringmaster", description: "Control plane for coding-agent fleets" };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
