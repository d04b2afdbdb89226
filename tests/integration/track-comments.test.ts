// The track page's comments: the track_comments view (each comment with its author's public name) and
// the comment length limit, through the real supabase-js as visitors and users.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signJwt, startTestStack, type TestUser } from "@crate/local-supabase/testing";
import type { LocalStack } from "@crate/local-supabase";
import { createAdmin, createArtist, createFan, createTrack, tomorrow } from "./schema-fixtures.ts";

let local: LocalStack;
let visitor: SupabaseClient;
let artist: TestUser;
let fan: TestUser;
let admin: TestUser;

beforeAll(async () => {
  local = await startTestStack({ seed: false });
  visitor = clientFor(null);
  artist = await createArtist(local.stack.db, "Comment Artist");
  fan = await createFan(local.stack.db, "comment_fan");
  admin = await createAdmin(local.stack.db);
});

afterAll(async () => {
  await local?.close();
});

function clientFor(user: TestUser | null): SupabaseClient {
  const token = user ? signJwt(user.claims, local.stack.config.jwtSecret) : local.anonKey;
  return createClient(local.url, local.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
}

async function comment(user: TestUser, trackId: string, content: string) {
  const { error } = await clientFor(user).from("comments").insert({ content, track_id: trackId, user_id: user.id });
  expect(error).toBeNull();
}

describe("track_comments", () => {
  it("names each comment's author: artist name, fan username, or nobody for an account without a profile", async () => {
    const trackId = await createTrack(local.stack.db, artist.id);
    await comment(fan, trackId, "From a fan");
    await comment(artist, trackId, "From the artist");
    await comment(admin, trackId, "From an admin");
    const { data, error } = await visitor
      .from("track_comments")
      .select("content, user_id, author_name, author_kind")
      .eq("track_id", trackId)
      .order("content");
    expect(error).toBeNull();
    expect(data).toEqual([
      { content: "From a fan", user_id: fan.id, author_name: "comment_fan", author_kind: "fan" },
      { content: "From an admin", user_id: admin.id, author_name: null, author_kind: null },
      { content: "From the artist", user_id: artist.id, author_name: "Comment Artist", author_kind: "artist" },
    ]);
  });

  it("shows comments exactly where their track is visible", async () => {
    const trackId = await createTrack(local.stack.db, artist.id, { release_date: tomorrow() });
    await comment(artist, trackId, "Coming soon");
    const read = (client: SupabaseClient) => client.from("track_comments").select("content").eq("track_id", trackId);
    expect((await read(clientFor(artist))).data).toEqual([{ content: "Coming soon" }]);
    expect((await read(visitor)).data).toEqual([]);
    expect((await read(clientFor(fan))).data).toEqual([]);
  });

  it("holds comments to 2,000 characters", async () => {
    const trackId = await createTrack(local.stack.db, artist.id);
    const client = clientFor(fan);
    expect((await client.from("comments").insert({ content: "x".repeat(2000), track_id: trackId, user_id: fan.id })).error).toBeNull();
    const { error } = await client.from("comments").insert({ content: "x".repeat(2001), track_id: trackId, user_id: fan.id });
    expect(error?.code).toBe("23514");
  });
});
