import { useEffect, useState, type FormEvent } from "react";
import { Form, href } from "react-router";
import * as v from "valibot";
import { Button } from "~/components/ui/button";
import { FieldError, Input, Label } from "~/components/ui/field";
import { newsletterThanks, newsletterThanksMs } from "~/lib/constants";
import { formFields, type FormReply } from "~/lib/forms/forms";
import { NewsletterSchema } from "~/lib/schemas/catalog";

/**
 * Newsletter sign-up. The spec sends the address nowhere: with JavaScript the form is checked and
 * thanked in the browser; without it the post reaches the home page's action, which checks it and
 * thanks just the same, keeping nothing.
 */
export function NewsletterForm({ reply }: { reply?: FormReply }) {
  const fields = formFields(reply);
  const [thanked, setThanked] = useState(Boolean(fields.notice));
  const [error, setError] = useState(fields.error("email") ?? null);

  useEffect(() => {
    if (!thanked) return;
    const timer = setTimeout(() => setThanked(false), newsletterThanksMs);
    return () => clearTimeout(timer);
  }, [thanked]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const result = v.safeParse(NewsletterSchema, { email: new FormData(form).get("email") ?? "" });
    if (!result.success) {
      setError(result.issues[0].message);
      return;
    }
    setError(null);
    form.reset();
    setThanked(true);
  }

  return (
    <section
      aria-labelledby="newsletter-heading"
      className="mt-14 rounded-3xl border border-stage-700 bg-gradient-to-br from-stage-850 to-stage-900 px-6 py-8 sm:px-10"
    >
      <div className="grid gap-6 md:grid-cols-2 md:items-center">
        <div>
          <h2 id="newsletter-heading" className="text-2xl font-bold">
            Stay in the loop
          </h2>
          <p className="mt-2 text-ink-muted">New releases, tour dates and the odd hidden gem, once a month.</p>
        </div>
        {thanked ? (
          <p role="status" className="rounded-xl border border-success/40 bg-success/10 px-4 py-4 text-center font-semibold text-success">
            {newsletterThanks}
          </p>
        ) : (
          <Form method="post" action={`${href("/")}?index`} noValidate onSubmit={onSubmit}>
            <Label htmlFor="newsletter-email">Email address</Label>
            <div className="flex flex-col gap-3 sm:flex-row">
              <Input
                id="newsletter-email"
                name="email"
                type="email"
                autoComplete="email"
                required
                placeholder="you@example.com"
                defaultValue={fields.text("email")}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? "newsletter-email-error" : undefined}
              />
              <Button type="submit" className="shrink-0">
                Subscribe
              </Button>
            </div>
            <FieldError id="newsletter-email-error">{error}</FieldError>
          </Form>
        )}
      </div>
    </section>
  );
}
