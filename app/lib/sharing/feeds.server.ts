// Feeds of releases, in Atom (RFC 4287) and RSS 2.0, so feed readers, podcast-style players and the
// fediverse's bridges follow an artist (or the whole site) without an account: each release an entry,
// linking its page, with its cover, its tracks, and its audio as enclosures (Atom takes one a track;
// RSS one an item, the first track's). The audio is `/track/{id}/audio`, which redirects to a freshly
// signed address of the streaming rendition, never the master.
import * as v from "valibot";
import { albumPath, artistPath, trackPath } from "~/lib/catalog/catalog";
import { brandName } from "~/lib/constants";
import { escapeXml } from "~/lib/http/xml";
import { nullableText } from "~/lib/schemas/columns";

export const FeedSchema = v.object({
  artist: v.nullable(
    v.object({ id: v.string(), artist_name: v.string(), short_description: nullableText, profile_image_url: nullableText }),
  ),
  releases: v.array(
    v.object({
      id: v.string(),
      kind: v.picklist(["album", "single"]),
      title: v.string(),
      added_at: v.string(),
      artist: v.object({ id: v.string(), artist_name: v.string() }),
      tracks: v.array(
        v.object({
          id: v.string(),
          title: v.string(),
          track_number: v.nullable(v.number()),
          release_date: v.string(),
          duration_seconds: v.nullable(v.number()),
          description: v.string(),
          genre: v.string(),
          artwork_url: nullableText,
          /** Its stream's size in bytes once made (0 when not known); null while there is no stream. */
          stream_size: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
        }),
      ),
    }),
  ),
  news: v.nullable(v.array(v.object({ id: v.string(), title: v.string(), content: v.string(), created_at: v.string() }))),
});
export type Feed = v.InferOutput<typeof FeedSchema>;
export type FeedFormat = "atom" | "rss";

export const feedTypes: Record<FeedFormat, string> = { atom: "application/atom+xml", rss: "application/rss+xml" };

/** Where a page's feed is: beside it (`/artist/{id}/feed.atom`), the site's at the root (`/feed.atom`). */
const feedPath = (path: string, format: FeedFormat) => `${path === "/" ? "" : path}/feed.${format}`;

/** The feeds of a page (an artist's, or the site's at `/`), for its `<link rel="alternate">` tags. */
export function feedLinks(path: string, title: string): Record<string, string>[] {
  return (["atom", "rss"] as const).map((format) => ({
    tagName: "link",
    rel: "alternate",
    type: feedTypes[format],
    title: `${title} (${format === "atom" ? "Atom" : "RSS"})`,
    href: feedPath(path, format),
  }));
}

type Entry = {
  id: string;
  title: string;
  link: string;
  published: Date;
  updated: Date;
  author: { name: string; uri: string } | null;
  categories: string[];
  summary: string;
  html: string;
  enclosures: { href: string; title: string; length: number }[];
};

const when = (date: string) => new Date(date.length === 10 ? `${date}T00:00:00Z` : date);

function entriesOf(feed: Feed, origin: string): Entry[] {
  const releases = feed.releases.map((release): Entry => {
    const [first] = release.tracks;
    const album = release.kind === "album";
    const link = `${origin}${album ? albumPath(release.id) : trackPath(first!.id)}`;
    const released = when(
      release.tracks
        .map((track) => track.release_date)
        .sort()
        .at(-1)!,
    );
    const added = when(release.added_at);
    const cover = first?.artwork_url
      ? `<p><img src="${escapeXml(new URL(first.artwork_url, origin).href)}" alt="Cover of ${escapeXml(release.title)}"/></p>`
      : "";
    const list = album
      ? `<ol>${release.tracks.map((track) => `<li><a href="${origin}${trackPath(track.id)}">${escapeXml(track.title)}</a></li>`).join("")}</ol>`
      : "";
    const about = first ? `<p>${escapeXml(first.description)}</p>` : "";
    return {
      id: link,
      title: release.title,
      link,
      published: released,
      updated: released > added ? released : added,
      author: { name: release.artist.artist_name, uri: `${origin}${artistPath(release.artist.id)}` },
      categories: [...new Set(release.tracks.map((track) => track.genre))],
      summary: `${album ? `Album, ${release.tracks.length} tracks` : "Single"} by ${release.artist.artist_name}`,
      html: cover + list + about,
      enclosures: release.tracks.flatMap((track) =>
        track.stream_size === null ? [] : [{ href: `${origin}/track/${track.id}/audio`, title: track.title, length: track.stream_size }],
      ),
    };
  });
  const news = (feed.news ?? []).map((item): Entry => ({
    id: `${origin}/#news-${item.id}`,
    title: item.title,
    link: `${origin}/`,
    published: when(item.created_at),
    updated: when(item.created_at),
    author: null,
    categories: ["News"],
    // The news item's text is its summary; it has no more to show.
    summary: item.content,
    html: "",
    enclosures: [],
  }));
  return [...releases, ...news].sort((a, b) => b.updated.getTime() - a.updated.getTime());
}

type FeedPage = { origin: string; path: string; title: string; description: string; image: string | null };

/** What a feed is of: an artist's releases, or (no artist) the site's new releases and news. */
export function feedPage(feed: Feed, origin: string): FeedPage {
  if (!feed.artist) {
    return {
      origin,
      path: "/",
      title: `New releases on ${brandName}`,
      description: `New music from independent artists on ${brandName}.`,
      image: null,
    };
  }
  return {
    origin,
    path: artistPath(feed.artist.id),
    title: `${feed.artist.artist_name} on ${brandName}`,
    description: feed.artist.short_description ?? `New releases from ${feed.artist.artist_name}.`,
    image: feed.artist.profile_image_url,
  };
}

/** The feed as an Atom document. */
export function atomFeed(feed: Feed, page: FeedPage): string {
  const entries = entriesOf(feed, page.origin);
  const self = `${page.origin}${feedPath(page.path, "atom")}`;
  const updated = entries[0]?.updated ?? new Date(0);
  const image = page.image ? `<logo>${escapeXml(new URL(page.image, page.origin).href)}</logo>` : "";
  const body = entries
    .map(
      (entry) =>
        `<entry><id>${escapeXml(entry.id)}</id><title>${escapeXml(entry.title)}</title>` +
        `<link rel="alternate" type="text/html" href="${escapeXml(entry.link)}"/>` +
        entry.enclosures
          .map(
            (enclosure) =>
              `<link rel="enclosure" type="audio/mpeg" title="${escapeXml(enclosure.title)}" href="${escapeXml(enclosure.href)}"${enclosure.length ? ` length="${enclosure.length}"` : ""}/>`,
          )
          .join("") +
        `<published>${entry.published.toISOString()}</published><updated>${entry.updated.toISOString()}</updated>` +
        (entry.author
          ? `<author><name>${escapeXml(entry.author.name)}</name><uri>${escapeXml(entry.author.uri)}</uri></author>`
          : `<author><name>${brandName}</name></author>`) +
        entry.categories.map((category) => `<category term="${escapeXml(category)}"/>`).join("") +
        `<summary type="text">${escapeXml(entry.summary)}</summary>` +
        (entry.html ? `<content type="html">${escapeXml(entry.html)}</content>` : "") +
        `</entry>`,
    )
    .join("\n");
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">\n` +
    `<id>${escapeXml(`${page.origin}${page.path}`)}</id><title>${escapeXml(page.title)}</title><subtitle>${escapeXml(page.description)}</subtitle>` +
    `<link rel="self" type="${feedTypes.atom}" href="${escapeXml(self)}"/><link rel="alternate" type="text/html" href="${escapeXml(`${page.origin}${page.path}`)}"/>` +
    `<updated>${updated.toISOString()}</updated><generator uri="${escapeXml(page.origin)}/">${brandName}</generator>` +
    `<icon>${escapeXml(page.origin)}/favicon.svg</icon>${image}\n${body}\n</feed>\n`
  );
}

/** The feed as an RSS 2.0 document. */
export function rssFeed(feed: Feed, page: FeedPage): string {
  const entries = entriesOf(feed, page.origin);
  const self = `${page.origin}${feedPath(page.path, "rss")}`;
  const link = `${page.origin}${page.path}`;
  const built = (entries[0]?.updated ?? new Date(0)).toUTCString();
  const image = page.image
    ? `<image><url>${escapeXml(new URL(page.image, page.origin).href)}</url><title>${escapeXml(page.title)}</title><link>${escapeXml(link)}</link></image>`
    : "";
  const items = entries
    .map(
      (entry) =>
        `<item><title>${escapeXml(entry.title)}</title><link>${escapeXml(entry.link)}</link><guid isPermaLink="${entry.id === entry.link}">${escapeXml(entry.id)}</guid>` +
        `<pubDate>${entry.published.toUTCString()}</pubDate>` +
        (entry.author ? `<dc:creator>${escapeXml(entry.author.name)}</dc:creator>` : "") +
        entry.categories.map((category) => `<category>${escapeXml(category)}</category>`).join("") +
        `<description>${escapeXml(`<p>${escapeXml(entry.summary)}</p>${entry.html}`)}</description>` +
        // RSS allows one enclosure an item, with its length in bytes (0 for a stream made before sizes were
        // kept, as the RSS Advisory Board advises when it is not known).
        (entry.enclosures[0]
          ? `<enclosure url="${escapeXml(entry.enclosures[0].href)}" length="${entry.enclosures[0].length}" type="audio/mpeg"/>`
          : "") +
        `</item>`,
    )
    .join("\n");
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">\n<channel>` +
    `<title>${escapeXml(page.title)}</title><link>${escapeXml(link)}</link><description>${escapeXml(page.description)}</description>` +
    `<atom:link href="${escapeXml(self)}" rel="self" type="${feedTypes.rss}"/><language>en</language><generator>${brandName}</generator>` +
    `<lastBuildDate>${built}</lastBuildDate>${image}\n${items}\n</channel>\n</rss>\n`
  );
}
