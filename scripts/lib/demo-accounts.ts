/** The demo accounts supabase/seed.sql creates (the README lists the same). */
export const demoAccounts = [
  { role: "admin", email: "admin@example.com", password: "admin-demo-pass" },
  { role: "artist", email: "artist@example.com", password: "artist-demo-pass" },
  { role: "fan", email: "fan@example.com", password: "fan-demo-pass" },
] as const;
