import { serializeCookieHeader } from "@supabase/ssr";
import { redirect, type RouterContextProvider } from "react-router";
import { envFrom } from "~/lib/http/env.server";
import { signUpErrorMessage } from "~/lib/backend/errors";
import { dashboardPath } from "~/lib/session/redirects";
import type { AccountRole } from "~/lib/session/session-user";
import { createSupabaseServerClient, rememberCookieName, sessionCookieOptions } from "~/lib/backend/supabase.server";
import { joinVisitorCart } from "~/lib/payments/cart.server";

/**
 * Creates the account; the database creates the artist or fan profile from `metadata` in the same
 * transaction, so a failure leaves nothing half-made. A new account stays signed in on this browser.
 * Throws the redirect to the dashboard (or `redirectTo`) on success; returns the message to show otherwise.
 */
export async function signUp(
  request: Request,
  context: Readonly<RouterContextProvider>,
  {
    email,
    password,
    role,
    metadata,
    captchaToken,
    redirectTo = null,
  }: {
    email: string;
    password: string;
    role: AccountRole;
    metadata: Record<string, unknown>;
    captchaToken?: string;
    /** Where the new account goes next (a path on this site: a gift's claim link), else its dashboard. */
    redirectTo?: string | null;
  },
): Promise<{ formError: string | null; notice: string | null; status: number }> {
  const headers = new Headers();
  const supabase = createSupabaseServerClient(request, envFrom(context), headers, true);
  const { data, error } = await supabase.auth.signUp({ email, password, options: { data: { ...metadata, role }, captchaToken } });
  if (error) {
    console.warn("sign-up failed", error.status, error.code, error.message);
    return { formError: signUpErrorMessage(error), notice: null, status: error.status === 429 ? 429 : 400 };
  }
  if (!data.user) return { formError: "No user data returned", notice: null, status: 500 };
  if (!data.session) {
    // Projects that confirm emails first answer without a session.
    return { formError: null, notice: "Almost there: check your inbox and confirm your email address, then log in.", status: 200 };
  }
  headers.append("Set-Cookie", serializeCookieHeader(rememberCookieName, "1", sessionCookieOptions(request, true)));
  // What they put in their cart as a visitor joins the new account's.
  await joinVisitorCart(request, supabase, headers);
  throw redirect(redirectTo ?? dashboardPath(role), { headers });
}
