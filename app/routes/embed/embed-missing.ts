/**
 * `/embed/…` that names no player (`/embed/`, `/embed/track/{id}/more`): a plain 404. Its address is not
 * an embed's, so the Worker's headers refuse every frame, and no page of the app (its sign-in form
 * among them) can be reached inside another site's frame through it.
 */
export function loader() {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
