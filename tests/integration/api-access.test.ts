import { type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, type LocalStack } from "@crate/local-supabase";
import { startTestStack } from "@crate/local-supabase/testing";
import { clientWith, createArtist, createFan, createTrack, signedInClient, tomorrow } from "./schema-fixtures.ts";
import { marketplaceSecretHeader } from "../../app/lib/http/backend-env.ts";

// The access rules are proved once, in SQL: supabase/tests/database has every table, view, function and
// bucket × operation × actor (npm run test:db). This suite keeps what only the API shows: the Worker's
// header reaching the database through PostgREST, what supabase-js answers for a refused or silent write,
// what embedding a related table reveals, Storage's own HTTP API, and a bulk body's limit.

type Actor = { id: string; client: SupabaseClient };

const marketplaceSecret = "api-access-marketplace-secret-0123456789abcdef";
const mp3 = new Uint8Array([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64]);
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const audio = () => new Blob([mp3], { type: "audio/mpeg" });
const fresh = (what: string) => `${what}-${crypto.randomUUID().slice(0, 8)}`;

let local: LocalStack;
let db: Db;
let visitor: SupabaseClient;
let artist: Actor;
let artistThroughMarketplace: Actor;
let fan: Actor;
let released: string;
let upcoming: string;

const newTrack = (artistId: string, fields: Record<string, unknown> = {}) => ({
  artist_id: artistId,
  title: fresh("api"),
  genre: "Rock",
  price: 0.99,
  description: "New single",
  ...fields,
});

beforeAll(async () => {
  local = await startTestStack({ seed: false });
  db = local.stack.db;
  await db.query("select private.trust_marketplace_secret($1)", [marketplaceSecret]);
  const artistUser = createArtist(db, "API Artist");
  artist = await signedInClient(local, artistUser);
  artistThroughMarketplace = await signedInClient(local, artistUser, { [marketplaceSecretHeader]: marketplaceSecret });
  fan = await signedInClient(local, createFan(db, "api-fan"));
  visitor = clientWith(local, local.anonKey);
  released = await createTrack(db, artist.id, { title: "Released" });
  upcoming = await createTrack(db, artist.id, { title: "Upcoming", release_date: tomorrow() });
  await db.query("insert into purchases (amount, track_id, user_id) values (1.99, $1, $2)", [released, fan.id]);
  expect((await artist.client.storage.from("tracks").upload(`${artist.id}/song.mp3`, audio())).error).toBeNull();
});

afterAll(() => local?.close());

describe("the Worker's secret, as PostgREST hands it to the database", () => {
  it("lets the artist's own token name a stored file only with the header", async () => {
    const file_url = `${artist.id}/${fresh("song")}.mp3`;
    const straight = await artist.client.from("tracks").insert(newTrack(artist.id, { file_url }));
    expect(straight.error?.code).toBe("42501");
    const throughMarketplace = await artistThroughMarketplace.client.from("tracks").insert(newTrack(artist.id, { file_url }));
    expect(throughMarketplace.error).toBeNull();
  });

  it("does not take a wrong secret", async () => {
    const wrong = await signedInClient(local, createArtist(db, "Guessing Artist"), {
      [marketplaceSecretHeader]: `${marketplaceSecret}-not`,
    });
    const { error } = await wrong.client.from("tracks").insert(newTrack(wrong.id, { file_url: `${wrong.id}/song.mp3` }));
    expect(error?.code).toBe("42501");
  });
});

describe("what supabase-js answers for writes the rules refuse", () => {
  it("an insert: the policy's error", async () => {
    const { error } = await fan.client.from("merch").insert({ artist_id: artist.id, title: "Fake", price: 5, description: "x" });
    expect(error?.code).toBe("42501");
  });

  it("an update or delete of someone else's row: no error and no rows, and the row is as it was", async () => {
    const update = await fan.client.from("tracks").update({ title: "Taken" }).eq("id", released).select("id");
    expect(update).toMatchObject({ error: null, data: [] });
    const remove = await fan.client.from("tracks").delete().eq("id", released).select("id");
    expect(remove).toMatchObject({ error: null, data: [] });
    const { rows } = await db.query("select title from tracks where id = $1", [released]);
    expect(rows).toEqual([{ title: "Released" }]);
  });

  it("a write by a visitor to a table only users write: refused by the grants", async () => {
    const { error } = await visitor.from("likes").insert({ track_id: released });
    expect(error?.code).toBe("42501");
  });
});

describe("embedding related tables", () => {
  it("shows a visitor an artist's released tracks only", async () => {
    const { data, error } = await visitor.from("artist_profiles").select("id, tracks(id)").eq("id", artist.id).single();
    expect(error).toBeNull();
    const ids = data!.tracks.map((track) => track.id);
    expect(ids).toContain(released);
    expect(ids).not.toContain(upcoming);
  });

  it("embeds a track's purchases for its buyer and its artist, for no other user, and refuses a visitor", async () => {
    const purchasesAs = async (client: SupabaseClient) => {
      const { data, error } = await client.from("tracks").select("id, purchases(id)").eq("id", released).single();
      return error ? error.code : data.purchases.length;
    };
    const otherFan = await signedInClient(local, createFan(db, "other-api-fan"));
    expect(await purchasesAs(fan.client)).toBe(1);
    expect(await purchasesAs(artist.client)).toBe(1);
    expect(await purchasesAs(otherFan.client)).toBe(0);
    expect(await purchasesAs(visitor)).toBe("42501");
  });

  it("embeds no payout settings but the reader's own", async () => {
    const { data } = await fan.client
      .from("artist_profiles")
      .select("id, artist_payout_settings(paypal_email)")
      .eq("id", artist.id)
      .single();
    expect(data?.artist_payout_settings).toBeNull();
  });
});

describe("Storage's HTTP API", () => {
  it("takes track audio from the artist in their folder, from nobody else", async () => {
    expect((await artist.client.storage.from("tracks").upload(`${artist.id}/${fresh("own")}.mp3`, audio())).error).toBeNull();
    expect((await fan.client.storage.from("tracks").upload(`${fan.id}/${fresh("own")}.mp3`, audio())).error).not.toBeNull();
    expect((await fan.client.storage.from("tracks").upload(`${artist.id}/${fresh("theirs")}.mp3`, audio())).error).not.toBeNull();
    expect((await visitor.storage.from("tracks").upload(`${artist.id}/${fresh("theirs")}.mp3`, audio())).error).not.toBeNull();
  });

  it("serves the artist's audio to the artist alone", async () => {
    expect((await artist.client.storage.from("tracks").download(`${artist.id}/song.mp3`)).error).toBeNull();
    expect((await fan.client.storage.from("tracks").download(`${artist.id}/song.mp3`)).error).not.toBeNull();
    expect((await visitor.storage.from("tracks").download(`${artist.id}/song.mp3`)).error).not.toBeNull();
  });

  it("removes artwork for its owner, and keeps it when someone else asks", async () => {
    const path = `${artist.id}/${fresh("cover")}.png`;
    await artist.client.storage.from("artwork").upload(path, new Blob([png], { type: "image/png" }));
    const stored = () => db.query("select 1 from storage.objects where bucket_id = 'artwork' and name = $1", [path]);
    await fan.client.storage.from("artwork").remove([path]);
    await visitor.storage.from("artwork").remove([path]);
    expect((await stored()).rows).toHaveLength(1);
    await artist.client.storage.from("artwork").remove([path]);
    expect((await stored()).rows).toHaveLength(0);
  });
});

// (40,000 in one statement are tried in SQL, supabase/tests/database/limits.test.sql: embedded PGlite
// takes seconds to receive a body that large, whatever the database then does with it.)
it("refuses a thousand tracks in one request, and holds an album's 100", async () => {
  const rows = (count: number) => Array.from({ length: count }, (_, n) => newTrack(artist.id, { title: `Bulk ${n}` }));
  expect((await artist.client.from("tracks").insert(rows(1000))).error?.code).toBe("54000");
  expect((await db.query("select 1 from tracks where title like 'Bulk %'")).rows).toEqual([]);
  expect((await artist.client.from("tracks").insert(rows(100))).error).toBeNull();
});
