import * as v from "valibot";
import { nullableText } from "./columns";

// What the bell's page reads (`read_notifications`, 19_notifications.sql), checked at the loader.

const NotificationSchema = v.object({
  id: v.string(),
  kind: v.picklist(["release", "reply", "sale", "follower", "shipped", "moved", "member"]),
  created_at: v.string(),
  unread: v.boolean(),
  // What it speaks of, as the reader may see it now: null once withdrawn, deleted or banned.
  release: v.nullable(
    v.object({
      id: v.string(),
      kind: v.picklist(["album", "single"]),
      title: v.string(),
      artist_id: v.string(),
      artist_name: v.string(),
      /** The day it comes out (its latest track's): a pre-order's, for a "moved" notice. */
      release_date: v.string(),
    }),
  ),
  comment: v.nullable(v.object({ id: v.string(), track_id: v.string(), track_title: v.string(), content: v.string() })),
  actor: nullableText,
  actor_id: nullableText,
  actor_is_artist: v.boolean(),
  // `gift`: a sale bought as a gift.
  order: v.nullable(
    v.object({
      currency: v.string(),
      items: v.nullable(v.array(v.string())),
      share: v.nullable(v.number()),
      gift: v.optional(v.boolean(), false),
    }),
  ),
});
export type Notification = v.InferOutput<typeof NotificationSchema>;

export const NotificationsSchema = v.array(NotificationSchema);
