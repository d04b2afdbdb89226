import { Form, href, Link, redirect, useSearchParams } from "react-router";
import { vouchedClient } from "~/lib/session/session.server";
import { Captcha } from "~/components/account/captcha";
import { AuthShell } from "~/components/auth-shell";
import { CheckboxField, FormAlert, SubmitButton } from "~/components/form-controls";
import { Field } from "~/components/ui/field";
import { captchaTokenFrom } from "~/lib/http/captcha";
import { captchaSiteKey, envFrom } from "~/lib/http/env.server";
import { signInErrorMessage } from "~/lib/backend/errors";
import { formError, formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { formatDate, requestLocale } from "~/lib/format";
import { redirectSignedIn } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { dashboardPath, safeRedirectPath } from "~/lib/session/redirects";
import { LoginSchema } from "~/lib/schemas/auth";
import { toSessionUser } from "~/lib/session/session-user";
import { createSupabaseServerClient, rememberCookieName, sessionCookieOptions } from "~/lib/backend/supabase.server";
import { serializeCookieHeader } from "@supabase/ssr";
import { joinVisitorCart } from "~/lib/payments/cart.server";
import type { Route } from "./+types/login";

export const meta = () => pageMeta("Log in", "Log in to your account to follow artists, listen and manage your music.");

export function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  redirectSignedIn(context, (user) => redirectTo ?? dashboardPath(user.role));
  return { captchaSiteKey: captchaSiteKey(context) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(LoginSchema, formData);
  if (!submission.success) return replyWith(submission.reply, 400);
  const { values } = submission;

  const { email, password, remember } = submission.value;
  const persistent = remember !== undefined;
  const headers = new Headers();
  const supabase = createSupabaseServerClient(request, envFrom(context), headers, persistent);
  const { data: signIn, error } = await supabase.auth.signInWithPassword({
    email,
    password,
    options: { captchaToken: captchaTokenFrom(formData) },
  });
  if (error) {
    // The Auth server says only that the account is banned (after the password matched); the database
    // says until when, to this Worker alone, for the password Auth has just accepted.
    const until =
      error.code === "user_banned"
        ? (await vouchedClient(context, { visitor: true }).rpc("suspended_until", { email, password })).data
        : null;
    const message = signInErrorMessage(error, until ? formatDate(until.slice(0, 10), requestLocale(request)) : null);
    return replyWith(formError(message, values), error.status === 429 ? 429 : 400);
  }
  if (!signIn.user) return replyWith(formError("No user data returned", values), 500);

  headers.append(
    "Set-Cookie",
    serializeCookieHeader(rememberCookieName, persistent ? "1" : "", {
      ...sessionCookieOptions(request, persistent),
      maxAge: persistent ? undefined : 0,
    }),
  );
  // What they put in their cart as a visitor joins the account's.
  await joinVisitorCart(request, supabase, headers);
  // Sent here by a guard: back to that page whatever the role. Otherwise to the role's dashboard.
  const destination = safeRedirectPath(submission.value.redirectTo) ?? dashboardPath(toSessionUser(signIn.user).role);
  throw redirect(destination, { headers });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const form = formFields(actionData);

  return (
    <AuthShell title="Welcome back" subtitle="Log in to keep digging.">
      <Form method="post" action={`/login${redirectTo ? `?${new URLSearchParams({ redirectTo })}` : ""}`} noValidate className="grid gap-5">
        <FormAlert>{form.formError}</FormAlert>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field label="Email" {...form.field("email")} type="email" autoComplete="email" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={form.error("password")} />
        <div className="flex items-center justify-between gap-4">
          <CheckboxField name="remember" label="Remember me" defaultChecked={form.checked("remember")} />
          <Link to={href("/forgot-password")} className="text-sm text-accent-strong underline-offset-4 hover:underline">
            Forgot password?
          </Link>
        </div>
        <Captcha siteKey={loaderData.captchaSiteKey} reply={actionData} />
        <SubmitButton action={href("/login")} pendingLabel="Signing in...">
          Log in
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-ink-muted">
        New here?{" "}
        <Link to={href("/register")} className="font-semibold text-accent-strong underline-offset-4 hover:underline">
          Create an account
        </Link>
      </p>
    </AuthShell>
  );
}
