import { useEffect, useRef } from "react";
import { Link, type FetcherWithComponents } from "react-router";
import { newPlaylistPath, playlistPath } from "~/lib/catalog/catalog";
import type { FormReply } from "~/lib/forms/forms";
import type { QueueTrack } from "~/lib/player";
import { useYourPlaylists } from "~/lib/session/use-user";
import { itemClasses } from "./menu-item";

/** An open track menu's "Add to playlist": each of the user's playlists adds the track, and "New playlist...". */
export default function PlaylistChoices({
  track,
  fetcher,
  onChosen,
  reveal,
}: {
  track: QueueTrack;
  fetcher: FetcherWithComponents<FormReply>;
  onChosen: () => void;
  /** In a list that scrolls (the queue), scrolled into view once drawn. */
  reveal: boolean;
}) {
  const playlists = useYourPlaylists();
  const choices = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (reveal) choices.current?.scrollIntoView({ block: "nearest" });
  }, [reveal]);
  return (
    <div ref={choices} className="mt-1 border-t border-stage-700 pt-1 first:mt-0 first:border-0 first:pt-0">
      <p className="px-3 pt-1 pb-1 text-xs font-semibold tracking-wider text-ink-faint uppercase">Add to playlist</p>
      <ul className="max-h-60 overflow-y-auto">
        {playlists.map((playlist) => (
          <li key={playlist.id}>
            <fetcher.Form method="post" action={playlistPath(playlist.id)} onSubmit={onChosen}>
              <input type="hidden" name="intent" value="add" />
              <input type="hidden" name="trackId" value={track.id} />
              <button type="submit" className={`${itemClasses} truncate`}>
                {playlist.name}
              </button>
            </fetcher.Form>
          </li>
        ))}
        <li>
          <Link to={newPlaylistPath(track.id)} className={itemClasses}>
            New playlist...
          </Link>
        </li>
      </ul>
    </div>
  );
}
