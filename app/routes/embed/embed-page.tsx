import { SeekWaveform } from "~/components/player/seek-waveform";
import { iconSymbols } from "~/components/ui/icon-symbols.server";
import { artistPath, trackPath } from "~/lib/catalog/catalog";
import { brandName } from "~/lib/constants";
import { embedHeight, type EmbedSize } from "~/lib/sharing/embedding.server";
import { formatDuration, formatPrice } from "~/lib/format";
import type { Embed } from "./embed.server";

/** `pass`: the embed's pass (signed-values.server.ts), for the player to bring back with its plays. */
export type EmbedOptions = { theme: "dark" | "light"; size: EmbedSize; script: string; origin: string; pass: string };

/** The icons the player draws, in its own markup (a sandboxed frame may fetch no sprite): taken once. */
const playerIcons = iconSymbols(["play", "pause"]);

/** The frame's own styles: the app's stylesheet is far larger than a player needs. */
const styles = `
h1{margin:0;font-size:inherit;font-weight:inherit}
:root{--bg:#0e0c16;--panel:#141120;--line:#3b3558;--ink:#f4f1fb;--muted:#b9b2cf;--color-accent:#ff4fa3;--color-stage-600:#3b3558;--accent-ink:#1a0610;color-scheme:dark}
[data-theme=light]{--bg:#fff;--panel:#f6f4fb;--line:#d9d4e8;--ink:#16121f;--muted:#5a5470;--color-accent:#c81e73;--color-stage-600:#cfc8e2;--accent-ink:#fff;color-scheme:light}
*{box-sizing:border-box;margin:0}
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--ink);overflow:hidden}
a{color:inherit;text-decoration:none}a:hover{text-decoration:underline}
:focus-visible{outline:2px solid var(--color-accent);outline-offset:2px;border-radius:4px}
.player{display:flex;gap:12px;padding:10px;height:100vh}
.art{flex:none;width:100px;height:100px;border-radius:8px;overflow:hidden;background:var(--panel)}
.art img{width:100%;height:100%;object-fit:cover;display:block}
.body{flex:1;min-width:0;display:flex;flex-direction:column;gap:6px}
.head{display:flex;align-items:flex-start;gap:10px;min-width:0}
.titles{flex:1;min-width:0}
.titles a{display:block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;line-height:24px}
.now{display:block}.compact .now,.album .now{display:flex;gap:8px;align-items:baseline;min-width:0}.compact .title,.album .title{flex:0 1 auto;min-width:0}.compact .by,.album .by{flex:0 1 auto;min-width:0}.album .release{font-weight:700}.compact .album .release{display:none}
.title{font-weight:700;font-size:15px}.by{color:var(--muted);font-size:13px}
.brand{flex:none;font-weight:800;color:var(--color-accent);font-size:13px}
.controls{display:flex;align-items:center;gap:10px;min-width:0}
.play{flex:none;width:40px;height:40px;border-radius:50%;border:0;background:var(--color-accent);color:var(--accent-ink);display:grid;place-items:center;cursor:pointer}
.play svg{width:18px;height:18px}.play[aria-busy=true]{opacity:.7}
[role=slider]{flex:1;height:36px;min-width:0;touch-action:none;cursor:pointer}
[role=slider] svg{width:100%;height:100%;display:block}
.time{flex:none;font-variant-numeric:tabular-nums;color:var(--muted);font-size:12px}
.links{display:flex;gap:12px;font-size:13px;color:var(--muted);line-height:18px;white-space:nowrap;min-width:0}
.links a{min-width:0;overflow:hidden;text-overflow:ellipsis}
.buy{flex:none;color:var(--color-accent);font-weight:600}
.status{font-size:12px;color:var(--muted)}.status:empty{display:none}
.tracks{list-style:none;padding:0;margin-top:4px;overflow-y:auto;border-top:1px solid var(--line)}
.tracks button{width:100%;display:flex;gap:10px;align-items:center;padding:7px 4px;border:0;border-bottom:1px solid var(--line);background:none;color:inherit;font:inherit;text-align:left;cursor:pointer}
.tracks button[aria-current=true]{color:var(--color-accent);font-weight:600}
.tracks .n{width:1.5em;color:var(--muted);text-align:right}.tracks .t{flex:1;min-width:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.large .player{flex-direction:column;height:auto;max-height:100vh}
.sprite{position:absolute;width:0;height:0;overflow:hidden}
.address{position:fixed;inset:0;display:flex;flex-direction:column;justify-content:center;gap:6px;padding:10px 44px 10px 12px;background:var(--bg)}
.address[hidden]{display:none}.address label{font-weight:600}
.address .copy{display:flex;gap:8px}
.address input{flex:1;min-width:0;height:36px;padding:0 10px;border:1px solid var(--line);border-radius:8px;background:var(--panel);color:inherit;font:inherit}
.address button{flex:none;height:36px;padding:0 14px;border:0;border-radius:8px;background:var(--color-accent);color:var(--accent-ink);font:inherit;font-weight:600;cursor:pointer}
.address .close{position:absolute;top:8px;right:8px;width:32px;height:32px;padding:0;background:none;color:var(--muted);font-size:20px}
.large .top{display:flex;gap:12px}.large .art{width:140px;height:140px}
@media (max-width:360px){.art{width:64px;height:64px}.large .art{width:96px;height:96px}.links{gap:8px}}
@media (max-width:300px){.art{display:none}}
`;

/**
 * An embedded player as plain server-rendered HTML: artwork, title and artist (links to Crate in a new
 * tab), play, the stored waveform to seek on, Buy, and in the large size the list of tracks. Its own
 * script (`embed-player.js`) plays it with the browser's audio element; without the script the links
 * still lead to Crate. The tracks go to the script as JSON in a data block (never run as code). It needs
 * nothing from its own origin but the script and the audio, so it plays in a sandboxed frame too: its
 * icons are in its markup, and where the frame may open no tab it shows the address to open instead.
 */
export function EmbedPage({ embed, options }: { embed: Embed; options: EmbedOptions }) {
  const first = embed.tracks[0]!;
  const tab = { target: "_blank", rel: "noopener" } as const;
  const at = (path: string) => new URL(path, options.origin).href;
  const data = embed.tracks.map((track) => ({
    id: track.id,
    title: track.title,
    artistName: track.artistName,
    href: at(trackPath(track.id)),
    artistHref: at(artistPath(track.artistId)),
    artworkUrl: track.artworkUrl,
    duration: track.duration,
    peaks: track.peaks,
  }));
  const title = `${embed.title} by ${embed.byline.name}`;
  const player = (
    <div className="body">
      <div className="head">
        {/* The frame's heading: what is playing, and by whom; an album's names the album first, then the
            track playing and its artist on one line. */}
        <h1 className={embed.kind === "album" ? "titles album" : "titles"}>
          {embed.kind === "album" ? (
            <a className="release" href={at(embed.href)} {...tab}>
              {embed.title}
            </a>
          ) : null}
          <span className="now">
            <a className="title" href={at(trackPath(first.id))} data-title {...tab}>
              {first.title}
            </a>
            <a className="by" href={at(artistPath(first.artistId))} data-artist {...tab}>
              {first.artistName}
            </a>
          </span>
        </h1>
        <a className="brand" href={at(embed.href)} {...tab} aria-label={`${embed.title} on ${brandName}`}>
          {brandName}
        </a>
      </div>
      <div className="controls">
        <button type="button" className="play" data-play aria-label={`Play ${first.title}`}>
          <svg aria-hidden="true">
            <use href="#play" />
          </svg>
        </button>
        <SeekWaveform peaks={first.peaks} time={0} duration={first.duration ?? 0} onSeek={null} />
        <span className="time" data-time>
          0:00 / {formatDuration(first.duration ?? 0)}
        </span>
      </div>
      <p className="links">
        {embed.buy ? (
          <a className="buy" href={at(embed.buy.href)} {...tab}>
            {embed.kind === "album" ? "Buy the album" : "Buy"} {formatPrice(embed.buy.price, embed.buy.currency)}
          </a>
        ) : null}
        <a href={at(embed.byline.href)} {...tab}>
          {embed.kind === "playlist" ? `A playlist by ${embed.byline.name}` : `More from ${embed.byline.name}`}
        </a>
      </p>
      <p className="status" role="status" data-status />
    </div>
  );
  return (
    // `data-height`: what the player needs, for a host that sizes its frame on request (WordPress).
    <html lang="en" data-theme={options.theme} data-embed={options.pass} data-height={embedHeight(options.size, embed.tracks.length)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} · ${brandName}`}</title>
        <link rel="canonical" href={at(embed.href)} />
        <style dangerouslySetInnerHTML={{ __html: styles }} />
      </head>
      <body className={options.size}>
        <svg className="sprite" aria-hidden="true" dangerouslySetInnerHTML={{ __html: playerIcons }} />
        <main className="player" aria-label={`${brandName} player: ${title}`}>
          {options.size === "large" ? (
            <div className="top">
              <Artwork embed={embed} href={at(embed.href)} />
              {player}
            </div>
          ) : (
            <>
              <Artwork embed={embed} href={at(embed.href)} />
              {player}
            </>
          )}
          {options.size === "large" && embed.tracks.length > 1 ? (
            <ol className="tracks" aria-label="Tracks">
              {embed.tracks.map((track, index) => (
                <li key={track.id}>
                  <button type="button" data-track={index} aria-current={index === 0 ? "true" : undefined}>
                    <span className="n">{index + 1}</span>
                    <span className="t">
                      {track.title}
                      {embed.kind === "album" ? null : <span className="by"> · {track.artistName}</span>}
                    </span>
                    <span className="time">{formatDuration(track.duration ?? 0)}</span>
                  </button>
                </li>
              ))}
            </ol>
          ) : null}
        </main>
        {/* Where the frame may open no tab (sandboxed without pop-ups, outside WordPress), the address to open by hand. */}
        <div className="address" role="dialog" aria-labelledby="address-label" data-address hidden>
          <label id="address-label" htmlFor="address">
            Copy this address to open it
          </label>
          <div className="copy">
            <input id="address" readOnly data-address-field />
            <button type="button" data-copy>
              Copy
            </button>
          </div>
          <button type="button" className="close" aria-label="Close" data-close>
            ×
          </button>
        </div>
        <audio preload="none" data-audio />
        <script type="application/json" data-tracks dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, "\\u003c") }} />
        <script src={options.script} defer />
      </body>
    </html>
  );
}

function Artwork({ embed, href }: { embed: Embed; href: string }) {
  return (
    <a className="art" href={href} target="_blank" rel="noopener" tabIndex={-1} aria-hidden="true">
      <img src={embed.artworkUrl ?? "/fallback-artwork.svg"} alt="" width={140} height={140} data-artwork />
    </a>
  );
}

/** What an embed of each kind says when there is nothing a visitor may play there (a private playlist is no playlist to them). */
const unavailable: Record<string, string> = {
  track: "This track is not available",
  album: "This album is not available",
  artist: "This artist has no music to play here",
  playlist: "This playlist is not available",
};

/** The frame's answer when there is nothing a visitor may play there. */
export function EmbedUnavailable({ theme, kind }: { theme: EmbedOptions["theme"]; kind: string }) {
  const message = unavailable[kind] ?? "This player is not available";
  return (
    <html lang="en" data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="robots" content="noindex" />
        <title>{`${message} · ${brandName}`}</title>
        <style dangerouslySetInnerHTML={{ __html: styles }} />
      </head>
      <body>
        <main className="player">
          <h1 className="title">{message}</h1>
        </main>
      </body>
    </html>
  );
}
