import { useState, type DragEvent } from "react";
import { Form, href, Link, useSubmit } from "react-router";
import { Artwork } from "~/components/catalog/artist-image";
import { ShareMenu } from "~/components/catalog/share-menu";
import { notFoundBoundary } from "~/components/error-boundary";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { DeleteSection } from "~/components/delete-section";
import { PlaylistArtwork, PlaylistFields } from "~/components/fan/playlist-form";
import { TrackTitle } from "~/components/fan/track-list";
import { PlayAllButton, PlayFromButton } from "~/components/player/play-button";
import { TrackMenu } from "~/components/player/track-menu";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { Icon, type IconName } from "~/components/ui/icon";
import { notFound, readOrThrow } from "~/lib/backend/backend.server";
import { artistPath, countOf, fanPath, isUuid, playlistPath } from "~/lib/catalog/catalog";
import { tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { formatDuration } from "~/lib/format";
import { formFields, type FormReply } from "~/lib/forms/forms";
import { publicPageHeaders } from "~/lib/http/http-cache";
import { pageCount, pageFrom } from "~/lib/ui/paging";
import { Pagination } from "~/components/ui/pagination";
import { pageMeta } from "~/lib/sharing/meta";
import { sharedPageMeta } from "~/lib/sharing/meta.server";
import { playlistData } from "~/lib/sharing/structured-data.server";
import { sharing } from "~/lib/sharing/embedding.server";
import { imageSizeOf } from "~/lib/media/image-size";
import { queueTrack } from "~/lib/player";
import { PlaylistPageSchema, type PlaylistPage } from "~/lib/schemas/playlists";
import { supabaseContext } from "~/lib/session/session.server";
import { useOptionalUser } from "~/lib/session/use-user";
import type { Route } from "./+types/playlist";
import { changePlaylist } from "./playlist.server";

const playlistNotFound = () => notFound("Playlist not found");

export const meta = ({ loaderData }: Route.MetaArgs) =>
  loaderData?.meta ?? pageMeta("Playlist not found", "This playlist does not exist or is private.");

const playlistOwnerPath = (playlist: PlaylistPage) =>
  playlist.owner_is_artist ? artistPath(playlist.owner_id) : fanPath(playlist.owner_id);

// A public playlist is a public page: a visitor's copy comes from the edge cache, and its owner's changes
// drop it. A private one is only ever its signed-in owner's (never cached).
export const headers = publicPageHeaders;

/** A long playlist is shown a page of tracks at a time (`?page=`), so its page stays light whatever its length. */
const tracksPerPage = 100;

/**
 * The playlist, its owner and the tracks the reader may see (one read), a page of them shown; its length,
 * running time and cover are the whole playlist's. A private one of someone else is 404.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw playlistNotFound();
  const playlist = readOrThrow(await context.get(supabaseContext).rpc("playlist_page", { playlist_id: params.id }), {
    what: "playlist",
    schema: PlaylistPageSchema,
    notFound: "Playlist not found",
  });
  tagCachedAnswer(context, `playlist:${playlist.id}`, `user:${playlist.owner_id}`);
  const url = new URL(request.url);
  const origin = url.origin;
  const pages = pageCount(playlist.tracks.length, tracksPerPage);
  const page = Math.min(pageFrom(url), pages);
  const offset = (page - 1) * tracksPerPage;
  const whole = {
    trackCount: playlist.tracks.length,
    seconds: playlist.tracks.reduce((total, track) => total + (track.duration_seconds ?? 0), 0),
    covers: playlist.tracks.slice(0, 4).map((track) => track.artwork_small_url ?? track.artwork_url),
    page,
    pages,
    offset,
  };
  const shown = { ...playlist, tracks: playlist.tracks.slice(offset, offset + tracksPerPage) };
  // For link previews, search engines and the Share menu, made here so the page carries no builder. A
  // private playlist (its owner's view) has none of them: it is nobody else's to see.
  const title = `${playlist.name} · a playlist by ${playlist.owner_name}`;
  const description = playlist.description ?? `${playlist.name}: ${countOf(playlist.tracks.length, "track")}.`;
  if (!playlist.is_public) return { playlist: shown, whole, share: null, meta: pageMeta(title, description) };
  const share = sharing(origin, playlistPath(playlist.id), title, [
    { label: "Embed code", kind: "playlist", id: playlist.id, trackCount: playlist.tracks.length },
  ]);
  // Its cover in previews: the first artwork in it.
  const cover = playlist.tracks.find((track) => track.artwork_url);
  const meta = sharedPageMeta(title, description, {
    origin,
    path: playlistPath(playlist.id),
    type: "music.playlist",
    image: cover?.artwork_url,
    imageSize: imageSizeOf(cover?.artwork_width, cover?.artwork_height),
    embed: share.player,
    structuredData: playlistData(origin, shown, playlistOwnerPath(playlist), whole.trackCount),
  });
  return { playlist: shown, whole, share, meta };
}

/** The owner's changes (playlist.server.ts). */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isUuid(params.id)) throw playlistNotFound();
  return changePlaylist(request, context, params.id);
}

export default function Playlist({ loaderData, actionData }: Route.ComponentProps) {
  const { playlist, whole } = loaderData;
  const user = useOptionalUser();
  const owner = user?.id === playlist.owner_id;
  const queue = playlist.tracks.map(queueTrack);
  const intent = actionData?.values.intent;
  const detailsReply = intent === undefined || intent === "edit" ? actionData : undefined;
  const tracksReply = intent === "add" || intent === "remove" || intent === "move" ? actionData : undefined;

  return (
    <article>
      <header className="flex flex-col gap-6 rounded-3xl border border-stage-700 bg-gradient-to-br from-stage-800 via-stage-900 to-stage-950 p-5 sm:flex-row sm:items-end sm:p-8">
        <PlaylistArtwork artwork={whole.covers} className="size-40 sm:size-48" />
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold tracking-wider text-accent uppercase">
            {playlist.is_public ? "Public playlist" : "Private playlist"}
          </p>
          <h1 className="mt-1 text-4xl font-bold text-balance break-words sm:text-5xl">{playlist.name}</h1>
          {playlist.description ? <p className="mt-3 max-w-2xl whitespace-pre-line text-ink-muted">{playlist.description}</p> : null}
          <p className="mt-3 text-sm text-ink-muted">
            By{" "}
            <Link to={playlistOwnerPath(playlist)} className="font-semibold text-ink hover:underline">
              {playlist.owner_name}
            </Link>{" "}
            · {countOf(whole.trackCount, "track")}
            {whole.seconds > 0 ? ` · ${formatDuration(whole.seconds)}` : null}
          </p>
          <div className="mt-5 flex flex-wrap items-center gap-3">
            <PlayAllButton tracks={queue} />
            {loaderData.share ? (
              <ShareMenu title={`${playlist.name} · a playlist by ${playlist.owner_name}`} share={loaderData.share} />
            ) : null}
          </div>
        </div>
      </header>

      <section aria-labelledby="playlist-tracks" className="mt-8">
        <h2 id="playlist-tracks" className="sr-only">
          Tracks
        </h2>
        <FormAlert tone={tracksReply?.notice ? "success" : "error"}>{tracksReply?.notice ?? tracksReply?.formError}</FormAlert>
        {playlist.tracks.length === 0 ? (
          <EmptyState title="No tracks in this playlist yet">
            {owner ? "Add tracks from the menu beside any track, or on its page." : "Its owner has not added any tracks yet."}
          </EmptyState>
        ) : (
          <PlaylistTracks
            playlistId={playlist.id}
            tracks={playlist.tracks}
            queue={queue}
            owner={owner}
            offset={whole.offset}
            trackCount={whole.trackCount}
          />
        )}
        <Pagination path={playlistPath(playlist.id)} page={whole.page} pages={whole.pages} />
      </section>

      {owner ? <OwnerSettings playlist={playlist} reply={detailsReply} deleteReply={intent === "delete" ? actionData : undefined} /> : null}
    </article>
  );
}

type PlaylistTrack = Route.ComponentProps["loaderData"]["playlist"]["tracks"][number];

/**
 * A page of the tracks in order (`offset` tracks come before it, of `trackCount`). The owner moves them
 * by dragging, or with Move up / Move down (buttons that post, so they work from the keyboard and without
 * JavaScript), and removes them.
 */
function PlaylistTracks({
  playlistId,
  tracks,
  queue,
  owner,
  offset,
  trackCount,
}: {
  playlistId: string;
  tracks: PlaylistTrack[];
  queue: ReturnType<typeof queueTrack>[];
  owner: boolean;
  offset: number;
  trackCount: number;
}) {
  const submit = useSubmit();
  const [dragged, setDragged] = useState<number | null>(null);
  const path = playlistPath(playlistId);

  function drop(event: DragEvent, to: number) {
    event.preventDefault();
    const from = dragged;
    setDragged(null);
    if (from === null || from === to) return;
    void submit(
      { intent: "move", trackId: tracks[from]!.id, to: String(offset + to + 1) },
      { method: "post", action: path, preventScrollReset: true },
    );
  }

  return (
    <ol aria-label="Tracks" className="divide-y divide-stage-700 rounded-2xl border border-stage-700 bg-stage-850">
      {tracks.map((track, index) => (
        <li
          key={track.id}
          draggable={owner}
          onDragStart={owner ? () => setDragged(index) : undefined}
          onDragOver={owner ? (event) => event.preventDefault() : undefined}
          onDrop={owner ? (event) => drop(event, index) : undefined}
          onDragEnd={owner ? () => setDragged(null) : undefined}
          className={`flex flex-wrap items-center gap-3 p-3 sm:flex-nowrap ${dragged === index ? "opacity-50" : ""}`}
        >
          <span className="w-8 text-right text-sm text-ink-faint tabular-nums">{offset + index + 1}</span>
          <PlayFromButton tracks={queue} start={index} />
          <Artwork src={track.artwork_small_url ?? track.artwork_url} className="size-12 shrink-0 rounded-lg" />
          <TrackTitle track={queue[index]!} />
          {track.duration_seconds ? (
            <span className="hidden text-sm text-ink-faint tabular-nums sm:inline">{formatDuration(track.duration_seconds)}</span>
          ) : null}
          {owner ? (
            <div className="flex items-center max-sm:order-last max-sm:w-full max-sm:justify-end">
              <TrackButton
                path={path}
                intent="move"
                trackId={track.id}
                to={offset + index}
                icon="up"
                label={`Move ${track.title} up`}
                disabled={offset + index === 0}
              />
              <TrackButton
                path={path}
                intent="move"
                trackId={track.id}
                to={offset + index + 2}
                icon="down"
                label={`Move ${track.title} down`}
                disabled={offset + index === trackCount - 1}
              />
              <TrackButton path={path} intent="remove" trackId={track.id} icon="close" label={`Remove ${track.title} from this playlist`} />
            </div>
          ) : null}
          <TrackMenu track={queue[index]!} />
        </li>
      ))}
    </ol>
  );
}

function TrackButton({
  path,
  intent,
  trackId,
  to,
  icon,
  label,
  disabled,
}: {
  path: string;
  intent: "move" | "remove";
  trackId: string;
  to?: number;
  icon: IconName;
  label: string;
  disabled?: boolean;
}) {
  return (
    <Form method="post" action={path} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="trackId" value={trackId} />
      {to !== undefined ? <input type="hidden" name="to" value={to} /> : null}
      <button
        type="submit"
        aria-label={label}
        disabled={disabled}
        className="grid size-9 place-items-center rounded-full text-ink-muted hover:bg-stage-700 hover:text-ink disabled:opacity-30"
      >
        <Icon name={icon} className="size-4" />
      </button>
    </Form>
  );
}

/** The owner's edit form and the delete form (a box to tick first, so a slip deletes nothing). */
function OwnerSettings({
  playlist,
  reply,
  deleteReply,
}: {
  playlist: Route.ComponentProps["loaderData"]["playlist"];
  reply: FormReply | undefined;
  deleteReply: FormReply | undefined;
}) {
  const path = playlistPath(playlist.id);
  const form = formFields(reply);
  return (
    <div className="mt-10 grid gap-6 lg:grid-cols-2">
      <Card>
        <h2 className="text-xl font-semibold">Edit details</h2>
        <Form method="post" action={path} noValidate className="mt-4 grid gap-4">
          <input type="hidden" name="intent" value="edit" />
          <FormAlert tone={form.notice ? "success" : "error"}>{form.notice ?? form.formError}</FormAlert>
          <PlaylistFields
            form={form}
            stored={{ name: playlist.name, description: playlist.description ?? "", isPublic: playlist.is_public }}
          />
          <SubmitButton action={path} pendingLabel="Saving...">
            Save playlist
          </SubmitButton>
        </Form>
      </Card>
      <DeleteSection thing="playlist" action={path} form={formFields(deleteReply)} className="self-start">
        The tracks stay where they are; only this list of them goes.
      </DeleteSection>
    </div>
  );
}

export const ErrorBoundary = notFoundBoundary({
  title: "Playlist not found",
  reason: "It may have been deleted, or its owner keeps it private.",
  links: [{ to: href("/discover"), label: "Discover music" }],
});
