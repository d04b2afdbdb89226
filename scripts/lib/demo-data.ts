import { createHash } from "node:crypto";

/** The demo accounts supabase/seed.sql creates (the README lists the same). */
export const demoAccounts = [
  { role: "admin", email: "admin@example.com", password: "admin-demo-pass" },
  { role: "artist", email: "artist@example.com", password: "artist-demo-pass" },
  { role: "fan", email: "fan@example.com", password: "fan-demo-pass" },
] as const;

/** A demo track's page: the seed derives each demo track's id from its title. */
export function demoTrackPath(title: string) {
  const hex = createHash("md5").update(`demo track: ${title}`).digest("hex");
  return `/track/${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
