// Proves the Edge Functions path end to end: answers that the runtime is up and, when the caller sent a
// user's JWT, which user that is, read from Supabase Auth with the caller's own token.
import { clientWith } from "../_shared/project.ts";

const supabase = clientWith();

Deno.serve(async (req) => {
  const token = req.headers.get("Authorization")?.replace(/^Bearer /, "");
  // The anon key is a valid JWT too, but it names no user: Auth answers it with an error and no user.
  const { data } = token ? await supabase.auth.getUser(token) : { data: { user: null } };
  return Response.json({ status: "ok", time: new Date().toISOString(), user_id: data.user?.id ?? null });
});
