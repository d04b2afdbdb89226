import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { FieldError, Input, Label } from "~/components/ui/field";
import { artistPath } from "~/lib/catalog/catalog";
import { formFields, type FormReply } from "~/lib/forms/forms";

// Apart from the home page's form (newsletter-form.tsx), which checks the address in the browser: this one
// leaves that to the artist page's action, so the artist page carries no validation library.

/**
 * An artist's newsletter: the address is sent a confirmation mail, and once confirmed gets their news
 * (their release mail, every message carrying an unsubscribe link). A POST to the artist's page, so it
 * works without JavaScript; with it, the reply is read in place. The reply asks to check the inbox,
 * whatever the address was, and stays: it is what to do next.
 */
export function ArtistNewsletterForm({ artistId, artistName, reply }: { artistId: string; artistName: string; reply?: FormReply }) {
  const fetcher = useFetcher<FormReply>({ key: `newsletter-${artistId}` });
  const answer = fetcher.data ?? reply;
  const fields = formFields(answer);
  const error = fields.error("email") ?? fields.formError;
  return (
    <section aria-labelledby="artist-newsletter">
      <h2 id="artist-newsletter" className="mb-1 text-lg font-bold">
        News by email
      </h2>
      <p className="mb-3 text-sm text-ink-muted">New releases from {artistName}, in your inbox on the day.</p>
      {fields.notice ? (
        <p role="status" className="rounded-xl border border-success/40 bg-success/10 px-4 py-3 text-center font-semibold text-success">
          {fields.notice}
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
