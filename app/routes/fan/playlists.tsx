import { Form, href, Link, redirect } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { Button } from "~/components/ui/button";
import { PlaylistArtwork, PlaylistFields } from "~/components/fan/playlist-form";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { forgetCached, playlistChanged } from "~/lib/cache/edge-cache.server";
import { countOf, isUuid, playlistPath } from "~/lib/catalog/catalog";
import { formError, formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireUser } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { addTrackToPlaylist } from "~/lib/catalog/playlists.server";
import { playlistLimits } from "~/lib/constants";
import { PlaylistSchema, YourPlaylistsSchema } from "~/lib/schemas/playlists";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/playlists";
import { sqlState } from "~/lib/backend/sqlstate";

export const meta = () => pageMeta("Your Playlists", "Your playlists.");

/** The user's playlists with their track counts and covers (one read), and the track "New playlist..." brought. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireUser(request, context);
  const adding = new URL(request.url).searchParams.get("add");
  const playlists = readOrThrow(await context.get(supabaseContext).rpc("my_playlists"), {
    what: "user's playlists",
    schema: YourPlaylistsSchema,
  });
  return { playlists, adding: isUuid(adding) ? adding : null };
}

/** Makes a playlist (with the track it was made for, if any) and opens it. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const supabase = context.get(supabaseContext);
  const submission = parseForm(PlaylistSchema, await readForm(request));
  if (!submission.success) return replyWith(submission.reply, 400);
  const { name, description, visibility, trackId } = submission.value;
  const { data: made, error } = await supabase
    .from("playlists")
    .insert({ name, description, is_public: visibility === "public" })
    .select("id")
    .single();
  if (error?.code === sqlState.limitReached) {
    return replyWith(formError(`You can have at most ${playlistLimits.playlists} playlists`, submission.values), 409);
  }
  if (error) {
    return refusedWrite(error, {
      what: "making a playlist",
      values: submission.values,
      fields: { name: "name", description: "description" },
    });
  }
  // The playlist exists either way: a track that cannot go in (deleted since, or not one the user may
  // see) is said on the new playlist's page by its absence, and the refusal is logged.
  if (trackId) await addTrackToPlaylist(supabase, { id: made.id, name }, trackId, submission.values);
  await forgetCached(request, context, playlistChanged(made.id, user.id));
  throw redirect(playlistPath(made.id));
}

export default function Playlists({ loaderData, actionData }: Route.ComponentProps) {
  const { playlists, adding } = loaderData;
  const form = formFields(actionData);
  const path = href("/playlists");
  // The track "New playlist..." brought stays in the address, so a refused form still carries it.
  const formAction = adding ? `${path}?add=${adding}` : path;
  return (
    <>
      <DashboardHeader title="Your Playlists" kicker="Your library" dashboard={href("/")}>
        Collect tracks into playlists of your own, to play in order or share.
      </DashboardHeader>
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section aria-labelledby="your-playlists">
          <h2 id="your-playlists" className="sr-only">
            Playlists
          </h2>
          {playlists.length === 0 ? (
            <EmptyState title="No playlists created yet">Make one with the form, or from the menu beside any track.</EmptyState>
          ) : (
            <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3">
              {playlists.map((playlist) => (
                <li key={playlist.id}>
                  <Link to={playlistPath(playlist.id)} className="group block rounded-2xl p-2 hover:bg-stage-850">
                    <PlaylistArtwork artwork={playlist.artwork} className="aspect-square w-full" />
                    <p className="mt-2 truncate font-semibold text-ink group-hover:underline">{playlist.name}</p>
                    <p className="text-sm text-ink-muted">
                      {countOf(playlist.track_count, "track")} · {playlist.is_public ? "Public" : "Private"}
                    </p>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>
        <div className="grid gap-6 self-start">
          {adding && playlists.length > 0 ? (
            <Card>
              <h2 id="add-to-playlist" className="text-xl font-semibold">
                Add to playlist
              </h2>
              <p className="mt-1 text-sm text-ink-muted">Choose a playlist for the track you chose.</p>
              <ul aria-labelledby="add-to-playlist" className="mt-4 grid gap-2">
                {playlists.map((playlist) => (
                  <li key={playlist.id}>
                    <Form method="post" action={playlistPath(playlist.id)}>
                      <input type="hidden" name="intent" value="add" />
                      <input type="hidden" name="trackId" value={adding} />
                      <Button type="submit" variant="secondary" className="w-full justify-start truncate">
                        {playlist.name}
                      </Button>
                    </Form>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
          <Card>
            <h2 id="new-playlist" className="text-xl font-semibold">
              New playlist
            </h2>
            {adding ? <p className="mt-1 text-sm text-ink-muted">The track you chose goes in first.</p> : null}
            <Form method="post" action={formAction} noValidate className="mt-4 grid gap-4">
              {adding ? <input type="hidden" name="trackId" value={adding} /> : null}
              <FormAlert>{form.formError}</FormAlert>
              <PlaylistFields form={form} />
              <SubmitButton action={path} pendingLabel="Creating...">
                Create playlist
              </SubmitButton>
            </Form>
          </Card>
        </div>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
