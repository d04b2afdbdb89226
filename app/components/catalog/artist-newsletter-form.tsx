import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { FieldError, Input, Label } from "~/components/ui/field";
import { artistPath } from "~/lib/catalog/catalog";
import { newsletterThanks, newsletterThanksMs } from "~/lib/constants";
import { formFields, type FormReply } from "~/lib/forms/forms";

// Apart from the home page's form (newsletter-form.tsx), which checks the address in the browser: this one
// leaves that to the artist page's action, so the artist page carries no validation library.

/**
 * An artist's newsletter: the address is kept for their news (their release mail, and the CSV they
 * export), every message carrying an unsubscribe link. A POST to the artist's page, so it works without
 * JavaScript; with it, the reply is read in place and the thanks shows for 3 seconds.
 */
export function ArtistNewsletterForm({ artistId, artistName, reply }: { artistId: string; artistName: string; reply?: FormReply }) {
  const fetcher = useFetcher<FormReply>({ key: `newsletter-${artistId}` });
  const answer = fetcher.data ?? reply;
  const fields = formFields(answer);
  // Each reply with thanks shows them for 3 seconds, then the form again.
  const [thankedFor, setThankedFor] = useState<FormReply | undefined>();
  const thanked = Boolean(fields.notice) && thankedFor !== answer;
  useEffect(() => {
    if (!thanked) return;
    const timer = setTimeout(() => setThankedFor(answer), newsletterThanksMs);
    return () => clearTimeout(timer);
  }, [thanked, answer]);
  const error = fields.error("email") ?? fields.formError;
  return (
    <section aria-labelledby="artist-newsletter">
      <h2 id="artist-newsletter" className="mb-1 text-lg font-bold">
        News by email
      </h2>
      <p className="mb-3 text-sm text-ink-muted">New releases from {artistName}, in your inbox on the day.</p>
      {thanked ? (
        <p role="status" className="rounded-xl border border-success/40 bg-success/10 px-4 py-3 text-center font-semibold text-success">
          {newsletterThanks}
        </p>
      ) : (
        <fetcher.Form method="post" action={artistPath(artistId)} noValidate>
          <input type="hidden" name="intent" value="newsletter" />
          <Label htmlFor="artist-newsletter-email">Email address</Label>
          <Input
            id="artist-newsletter-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            placeholder="you@example.com"
            defaultValue={fields.text("email")}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "artist-newsletter-email-error" : undefined}
          />
          <FieldError id="artist-newsletter-email-error">{error}</FieldError>
          <Button type="submit" variant="secondary" className="mt-3 w-full" disabled={fetcher.state !== "idle"}>
            Subscribe
          </Button>
        </fetcher.Form>
      )}
    </section>
  );
}
