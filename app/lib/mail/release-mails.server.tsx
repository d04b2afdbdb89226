// Release mail: one message to an address for every release waiting for it (one release, or a digest of
// many), as the announcement job grouped them (19_notifications.sql). The way mailbox providers require of
// bulk mail: each message carries `List-Unsubscribe` with its one-click `List-Unsubscribe-Post` (RFC 8058,
// 2.1): a POST of `List-Unsubscribe=One-Click` to the signed link stops the mail at once, without a
// cookie. The body carries the same links: one per artist, and one for every artist's release mail.
import { href } from "react-router";
import * as v from "valibot";
import { albumPath, countOf } from "~/lib/catalog/catalog";
import { unsubscribePass, type Unsubscribe } from "~/lib/http/signed-values.server";
import type { Message } from "./mail.server";
import { rendered } from "./order-mails.server";

const MailRelease = v.object({
  id: v.string(),
  kind: v.picklist(["album", "single"]),
  title: v.string(),
  artist_id: v.string(),
  artist_name: v.string(),
  artwork_url: v.nullable(v.string()),
  tracks: v.number(),
});

/** A release mail as `mail_to_send` answers it: the releases still to tell (none: nothing to send). */
export const ReleaseMailToSend = v.object({
  id: v.string(),
  kind: v.literal("releases"),
  recipient: v.string(),
  sent: v.boolean(),
  releases: v.pipe(
    v.nullable(v.array(MailRelease)),
    v.transform((releases) => releases ?? []),
  ),
});
type ReleaseMailToSend = v.InferOutput<typeof ReleaseMailToSend>;

/** The signed unsubscribe link of `what`, on the site at `origin`. */
export async function unsubscribeLink(secret: string, origin: string, what: Unsubscribe): Promise<string> {
  return new URL(href("/unsubscribe/:pass", { pass: await unsubscribePass(secret, what) }), origin).href;
}

/** The message for `mail` (which has releases to tell), its links on the site at `origin`. */
export async function releaseMail(mail: ReleaseMailToSend, origin: string, secret: string): Promise<Message> {
  const artists = [...new Map(mail.releases.map((release) => [release.artist_id, release.artist_name])).entries()];
  const fromAll = await unsubscribeLink(secret, origin, { email: mail.recipient, artistId: null });
  const fromEach = await Promise.all(
    artists.map(async ([id, name]) => ({ name, link: await unsubscribeLink(secret, origin, { email: mail.recipient, artistId: id }) })),
  );
  // One artist's mail stops that artist's; a digest of several stops every artist's (the body offers each).
  const oneClick = fromEach.length === 1 ? fromEach[0]!.link : fromAll;
  const first = mail.releases[0]!;
  const subject =
    mail.releases.length === 1
      ? `New from ${first.artist_name}: ${first.title}`
      : `${mail.releases.length} new releases from artists you follow`;
  const link = (id: string) => new URL(albumPath(id), origin).href;
  const what = (release: v.InferOutput<typeof MailRelease>) =>
    release.kind === "album" ? `album, ${countOf(release.tracks, "track")}` : "single";
  const message = rendered(
    mail.recipient,
    subject,
    <>
      <h1>{mail.releases.length === 1 ? "Out now" : "New releases"}</h1>
      <ul style={{ listStyle: "none", padding: 0 }}>
        {mail.releases.map((release) => (
          <li key={release.id} style={{ margin: "0 0 16px" }}>
            {release.artwork_url ? (
              <img src={release.artwork_url} alt={`Cover of ${release.title}`} width={96} height={96} style={{ display: "block" }} />
            ) : null}
            <a href={link(release.id)}>
              <strong>{release.title}</strong>
            </a>{" "}
            by {release.artist_name} ({what(release)})
          </li>
        ))}
      </ul>
      <p style={{ color: "#555", fontSize: "13px" }}>
        You get this because you follow, bought from or signed up for news from these artists.{" "}
        {fromEach.map(({ name, link: stop }) => (
          <span key={stop}>
            <a href={stop}>Unsubscribe from {name}</a>.{" "}
          </span>
        ))}
        <a href={fromAll}>Unsubscribe from all release emails</a>.
      </p>
    </>,
    [
      subject,
      "",
      ...mail.releases.map((release) => `${release.title} by ${release.artist_name} (${what(release)}): ${link(release.id)}`),
      "",
      "You get this because you follow, bought from or signed up for news from these artists.",
      ...fromEach.map(({ name, link: stop }) => `Unsubscribe from ${name}: ${stop}`),
      `Unsubscribe from all release emails: ${fromAll}`,
    ],
  );
  return { ...message, headers: { "List-Unsubscribe": `<${oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } };
}
