import { href, useFetcher, useLocation } from "react-router";
import { Button, LinkButton } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import type { FormReply } from "~/lib/forms/forms";
import { useOptionalUser } from "~/lib/session/use-user";
import { useHydrated } from "~/lib/ui/use-hydrated";

/**
 * "Add to wishlist" / "Remove from wishlist" on a release's page (its album page, or a single's track page:
 * `trackId`), in a POST form so it works without JavaScript; with it the change shows at once and the reply
 * is read in place. A visitor is offered to sign in and come back; artists and administrators keep no
 * wishlist, so they see nothing.
 */
export function WishlistButton({
  releaseId,
  trackId,
  wishlisted,
  title,
}: {
  releaseId: string;
  trackId?: string;
  wishlisted: boolean;
  title: string;
}) {
  const user = useOptionalUser();
  const location = useLocation();
  const fetcher = useFetcher<FormReply>({ key: `wishlist-${releaseId}` });
  const hydrated = useHydrated();
  if (!user) {
    return (
      <LinkButton
        to={`${href("/login")}?${new URLSearchParams({ redirectTo: `${location.pathname}${location.search}` })}`}
        size="lg"
        variant="secondary"
      >
        <Icon name="plus" className="size-5" />
        Sign in to add to your wishlist
      </LinkButton>
    );
  }
  if (user.role !== "fan") return null;
  const intent = fetcher.formData?.get("intent");
  const showing = typeof intent === "string" ? intent === "add" : wishlisted;
  return (
    <fetcher.Form method="post" action={href("/release/:id/wishlist", { id: releaseId })}>
      <input type="hidden" name="intent" value={showing ? "remove" : "add"} />
      {trackId ? <input type="hidden" name="track" value={trackId} /> : null}
      {hydrated ? <input type="hidden" name="fetcher" value="1" /> : null}
      <Button type="submit" size="lg" variant="secondary">
        <Icon name={showing ? "check" : "plus"} className={showing ? "size-5 text-accent" : "size-5 text-ink-faint"} />
        {showing ? "Remove from wishlist" : "Add to wishlist"}
        <span className="sr-only">: {title}</span>
      </Button>
      {fetcher.data?.formError ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {fetcher.data.formError}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
