// Edit Profile as a browser without JavaScript uses it: plain form posts to the route action. Save goes to
// the public page, which shows it all; each refusal comes back next to its field with what was typed;
// shows are added and removed by buttons that post an intent; the picture is a multipart form of its own,
// judged by its bytes. A new artist signs up for these tests, so the demo catalogue never changes.
import { beforeAll, describe, expect, it } from "vitest";
import { jpegOf, pngClaiming, tinyPng } from "../support/media.ts";
import { Visitor, inputValue, newArtist, newFan, serviceClient, signedIn, text } from "./support.ts";

let artist: Visitor;
let artistId: string;

beforeAll(async () => {
  ({ visitor: artist, id: artistId } = await newArtist("Profile Tester"));
});

const nextYear = `${new Date().getUTCFullYear() + 1}-06-14`;

const profile = {
  artistName: "The Profile Testers",
  shortDescription: "Harmonies from the hills",
  bio: "We met at a folk club and never stopped singing.",
  website: "https://profiletesters.example",
  twitter: "@profiletesters",
  instagram: "https://instagram.com/profile.testers",
  genres: ["Folk", "Indie"],
  showId: ["a1", "b2"],
  showDate: [nextYear, "2020-01-01"],
  showVenue: ["The Old Hall", "Gone Club"],
  showCity: ["Leeds", "York"],
};

const picture = (bytes: Uint8Array<ArrayBuffer>, name: string, type: string) => {
  const body = new FormData();
  body.set("intent", "picture");
  body.set("picture", new File([bytes], name, { type }));
  return body;
};

describe("Edit Profile", () => {
  it("shows the stored profile, from one read after the session check", async () => {
    const { response, html } = await artist.get("/dashboard/artist/profile");
    expect(response.status).toBe(200);
    expect(response.headers.get("server-timing")).toMatch(/\b2 round trips\b/);
    expect(html).toMatch(/<h1[^>]*>Edit Profile<\/h1>/);
    expect(inputValue(html, "artistName")).toBe("Profile Tester");
    expect(text(html)).toContain("No shows yet.");
  });

  it("saves everything and goes to the public page, which shows it all", async () => {
    const { response } = await artist.post("/dashboard/artist/profile", profile);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/artist/${artistId}`);

    const { data } = await serviceClient
      .from("artist_profiles")
      .select("artist_name, short_description, bio, website, genres, social_links, tour_dates")
      .eq("id", artistId)
      .single();
    expect(data).toEqual({
      artist_name: "The Profile Testers",
      short_description: "Harmonies from the hills",
      bio: "We met at a folk club and never stopped singing.",
      website: "https://profiletesters.example",
      genres: ["Folk", "Indie"],
      social_links: { twitter: "@profiletesters", instagram: "https://instagram.com/profile.testers" },
      tour_dates: [
        { date: nextYear, venue: "The Old Hall", city: "Leeds" },
        { date: "2020-01-01", venue: "Gone Club", city: "York" },
      ],
    });

    const page = await artist.get(`/artist/${artistId}`);
    const shown = text(page.html);
    for (const part of [
      "The Profile Testers",
      "Harmonies from the hills",
      "never stopped singing",
      "profiletesters.example",
      "@profiletesters",
      "@profile.testers",
      "The Old Hall",
      "Leeds",
    ]) {
      expect(shown).toContain(part);
    }
    // Past shows are kept but not listed as upcoming.
    expect(shown).not.toContain("Gone Club");

    // The form shows what was saved.
    const form = await artist.get("/dashboard/artist/profile");
    expect(inputValue(form.html, "website")).toBe("https://profiletesters.example");
    expect(form.html.match(/name="showVenue"/g)).toHaveLength(2);
  });

  it("names the account in the header's menu by its profile as it is now, whatever the role", async () => {
    const accountMenu = (html: string) => html.match(/<span class="truncate">([^<]*)<\/span><span class="sr-only">, account menu</)?.[1];
    const renamed = await newArtist("Header Before");
    const saved = await renamed.visitor.post("/dashboard/artist/profile", { ...profile, artistName: "Header After" });
    expect(saved.response.status).toBe(303);
    expect(accountMenu((await renamed.visitor.get("/dashboard/artist")).html)).toBe("Header After");

    const suffix = Date.now().toString(36);
    const fan = await newFan(`headerfan${suffix}`);
    const kept = await fan.visitor.post("/dashboard/fan/profile", { username: `renamedfan${suffix}`, bio: "", favoriteGenres: [] });
    expect(kept.response.status).toBe(303);
    expect(accountMenu((await fan.visitor.get("/dashboard/fan")).html)).toBe(`renamedfan${suffix}`);

    const administrator = await signedIn("admin@example.com", "admin-demo-pass");
    expect(accountMenu((await administrator.get("/admin")).html)).toBe("Administrator");
  });

  it("refuses each bad field with its message, next to it, keeping what was typed", async () => {
    const { response, html } = await artist.post("/dashboard/artist/profile", {
      ...profile,
      artistName: "  ",
      website: "javascript:alert(1)",
      twitter: "not a handle!",
      instagram: "javascript:alert(1)",
      showVenue: ["The Old Hall", ""],
      showDate: [nextYear, "someday"],
    });
    expect(response.status).toBe(400);
    const page = text(html);
    for (const message of [
      "Artist name is required",
      "Website must be a web address starting with http:// or https://",
      "Enter a Twitter handle like @name, or a link to your Twitter profile",
      "Enter an Instagram handle like @name, or a link to your Instagram profile",
      "Every show needs a date",
      "Every show needs a venue",
    ]) {
      expect(page).toContain(message);
    }
    expect(inputValue(html, "website")).toBe("javascript:alert(1)");
    expect(inputValue(html, "twitter")).toBe("not a handle!");
    expect(html).toMatch(/<input[^>]*name="showCity"[^>]*value="York"/);

    const ftp = await artist.post("/dashboard/artist/profile", { ...profile, website: "ftp://files.example" });
    expect(ftp.response.status).toBe(400);
    expect(text(ftp.html)).toContain("Website must be a web address starting with http:// or https://");

    // Nothing was saved.
    const { data } = await serviceClient.from("artist_profiles").select("artist_name, website").eq("id", artistId).single();
    expect(data).toEqual({ artist_name: "The Profile Testers", website: "https://profiletesters.example" });
  });

  it("counts the shows before looking at any, and refuses thousands of rows as too large a form", async () => {
    const shows = (count: number) => {
      const ids = Array.from({ length: count }, (_, row) => `s${row}`);
      return { showId: ids, showDate: ids.map(() => nextYear), showVenue: ids.map(() => "Hall"), showCity: ids.map(() => "York") };
    };
    const storedShows = async () =>
      (await serviceClient.from("artist_profiles").select("tour_dates").eq("id", artistId).single()).data?.tour_dates;
    const before = await storedShows();
    const tooMany = await artist.post("/dashboard/artist/profile", { ...profile, ...shows(51) });
    expect(tooMany.response.status).toBe(400);
    expect(text(tooMany.html)).toContain("At most 50 shows");

    const flood = await artist.post("/dashboard/artist/profile", { ...profile, ...shows(10_000) });
    expect(flood.response.status).toBe(413);
    expect(text(flood.html)).toContain("This form is too large to send. Please shorten it and try again.");
    expect(await storedShows()).toEqual(before);

    // a picture's allowance is for a picture: a megabyte of text is too large a form either way
    const megabyte = "x".repeat(1024 * 1024);
    expect((await artist.post("/dashboard/artist/profile", { ...profile, bio: megabyte })).response.status).toBe(413);
    const multipart = new FormData();
    for (const [name, value] of Object.entries({ ...profile, bio: megabyte }))
      for (const item of [value].flat()) multipart.append(name, item);
    expect((await artist.postMultipart("/dashboard/artist/profile", multipart)).response.status).toBe(413);
  });

  it("adds and removes shows with buttons that post the form, unsaved, keeping what was typed", async () => {
    const added = await artist.post("/dashboard/artist/profile", { ...profile, bio: "Typed, not saved", intent: "add-show" });
    expect(added.response.status).toBe(200);
    expect(added.html.match(/name="showVenue"/g)).toHaveLength(3);
    expect(text(added.html)).toContain("Not saved yet: press Save profile to keep your changes.");
    expect(added.html).toContain("Typed, not saved");

    const removed = await artist.post("/dashboard/artist/profile", { ...profile, intent: "remove-show:a1" });
    expect(removed.html.match(/name="showVenue"/g)).toHaveLength(1);
    expect(removed.html).toMatch(/name="showVenue"[^>]*value="Gone Club"/);
    const { data } = await serviceClient.from("artist_profiles").select("bio").eq("id", artistId).single();
    expect(data?.bio).toBe("We met at a folk club and never stopped singing.");
  });

  it("takes a picture sent with the form, judged by its bytes, and removes it", async () => {
    const html = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");
    const refused = await artist.postMultipart("/dashboard/artist/profile", picture(html, "me.png", "image/png"));
    expect(refused.response.status).toBe(400);
    expect(text(refused.html)).toContain("Invalid file type. Please upload JPG, PNG, or WebP images only.");

    const tooBig = new Uint8Array(5 * 1024 * 1024 + 1);
    tooBig.set(tinyPng);
    const large = await artist.postMultipart("/dashboard/artist/profile", picture(tooBig, "me.png", "image/png"));
    expect(text(large.html)).toContain("File is too large. Maximum size is 5MB.");

    const saved = await artist.postMultipart("/dashboard/artist/profile", picture(tinyPng, "me.png", "image/png"));
    expect(saved.response.status).toBe(303);
    const { data } = await serviceClient
      .from("artist_profiles")
      .select("profile_image_url, profile_image_width, profile_image_height")
      .eq("id", artistId)
      .single();
    expect(data).toMatchObject({ profile_image_width: 1, profile_image_height: 1 });
    expect(data?.profile_image_url).toMatch(new RegExp(`/storage/v1/object/public/artwork/${artistId}/\\d{13}-[0-9a-f]{8}\\.png$`));
    const stored = await fetch(data!.profile_image_url!);
    expect(new Uint8Array(await stored.arrayBuffer())).toEqual(tinyPng);
    expect((await artist.get(`/artist/${artistId}`)).html).toContain(data!.profile_image_url!);

    const removed = await artist.post("/dashboard/artist/profile", { intent: "remove-picture" });
    expect(removed.response.status).toBe(303);
    const after = await serviceClient
      .from("artist_profiles")
      .select("profile_image_url, profile_image_width, profile_image_height")
      .eq("id", artistId)
      .single();
    expect(after.data).toEqual({ profile_image_url: null, profile_image_width: null, profile_image_height: null });
  });

  it("refuses a multipart body past the form's limits as it streams in (413), and keeps nothing", async () => {
    const before = await serviceClient.from("artist_profiles").select("profile_image_url, bio").eq("id", artistId).single();
    const manyFields = new FormData();
    for (let n = 0; n < 20_000; n++) manyFields.append("bio", "x");
    const twoPictures = picture(tinyPng, "me.png", "image/png");
    twoPictures.append("picture", new File([tinyPng], "again.png", { type: "image/png" }));
    // Past its field's 15 MB (5 MB and room for the message) as it streams; the rest is read and dropped, so the answer arrives.
    const hugePicture = picture(new Uint8Array(15 * 1024 * 1024 + 300 * 1024), "me.png", "image/png");
    const strayFile = new FormData();
    strayFile.set("intent", "save");
    strayFile.set("bio", new File([tinyPng], "bio.png", { type: "image/png" }));
    for (const body of [manyFields, twoPictures, hugePicture, strayFile]) {
      const { response } = await artist.postMultipart("/dashboard/artist/profile", body);
      expect(response.status).toBe(413);
    }
    const after = await serviceClient.from("artist_profiles").select("profile_image_url, bio").eq("id", artistId).single();
    expect(after.data).toEqual(before.data);
  });

  it.each([
    [2_147_483_647, 2_147_483_647],
    [16_777_216, 16_777_216],
    [65_535, 65_535],
    [10_001, 400],
  ])("refuses a picture whose header claims %i × %i pixels, sent with the form or uploaded ahead", async (width, height) => {
    const before = await serviceClient.from("artist_profiles").select("profile_image_url").eq("id", artistId).single();
    const claimed = pngClaiming(width, height);
    const sent = await artist.postMultipart("/dashboard/artist/profile", picture(claimed, "me.png", "image/png"));
    expect(sent.response.status).toBe(400);
    expect(text(sent.html)).toContain("File is too large. Maximum size is 5MB.");
    const path = `${artistId}/17800000${String(width % 100_000).padStart(5, "0")}-abcdef12.png`;
    await serviceClient.storage.from("artwork").upload(path, claimed, { contentType: "image/png", upsert: true });
    const used = await artist.post("/dashboard/artist/profile", { intent: "use-picture", path });
    expect(used.response.status).toBe(400);
    expect(text(used.html)).toContain("File is too large. Maximum size is 5MB.");
    const after = await serviceClient.from("artist_profiles").select("profile_image_url").eq("id", artistId).single();
    expect(after.data).toEqual(before.data);
  });

  it("uses an uploaded picture only from the artist's own folder, once it is there and is an image", async () => {
    const other = await newArtist("Picture Thief Target");
    const theirs = `${other.id}/1790000000000-abcdef12.png`;
    const notMine = await artist.post("/dashboard/artist/profile", { intent: "use-picture", path: theirs });
    expect(notMine.response.status).toBe(400);
    expect(text(notMine.html)).toContain("You don't have permission to perform this action");

    const missing = await artist.post("/dashboard/artist/profile", {
      intent: "use-picture",
      path: `${artistId}/1790000000000-abcdef12.png`,
    });
    expect(text(missing.html)).toContain("Please wait for the upload to complete");

    // Bytes that are not what the name says are refused.
    const disguised = `${artistId}/1790000000001-abcdef12.png`;
    const upload = await serviceClient.storage
      .from("artwork")
      .upload(disguised, new TextEncoder().encode("GIF89a not a png at all"), { contentType: "image/png" });
    expect(upload.error).toBeNull();
    const wrongBytes = await artist.post("/dashboard/artist/profile", { intent: "use-picture", path: disguised });
    expect(text(wrongBytes.html)).toContain("Unsupported file type");

    // A portrait whose metadata runs past the first bytes read: its size is read further on.
    const real = `${artistId}/1790000000002-abcdef12.jpg`;
    const portrait = jpegOf(30, 45, 100_000);
    expect((await serviceClient.storage.from("artwork").upload(real, portrait, { contentType: "image/jpeg" })).error).toBeNull();
    const used = await artist.post("/dashboard/artist/profile", { intent: "use-picture", path: real });
    expect(used.response.status).toBe(200);
    const { data } = await serviceClient
      .from("artist_profiles")
      .select("profile_image_url, profile_image_width, profile_image_height")
      .eq("id", artistId)
      .single();
    expect(data?.profile_image_url).toContain(real);
    expect(data).toMatchObject({ profile_image_width: 30, profile_image_height: 45 });

    // Taking the file out of the upload list again never removes the picture in use.
    const discard = new FormData();
    discard.set("bucket", "artwork");
    discard.set("path", real);
    const kept = await artist.postMultipart("/uploads/discard", discard);
    expect(kept.response.status).toBe(409);
    expect(kept.html).toContain("This file is your profile picture");
  });

  it("asks a visitor to log in and answers a fan 403; nobody edits another artist's profile", async () => {
    const visitor = await new Visitor().get("/dashboard/artist/profile");
    expect(visitor.response.status).toBe(302);
    expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/dashboard/artist/profile")}`);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.get("/dashboard/artist/profile")).response.status).toBe(403);
    expect((await fan.post("/dashboard/artist/profile", profile)).response.status).toBe(403);
    // A visitor's post changes nothing either.
    expect((await new Visitor().post("/dashboard/artist/profile", profile)).response.status).toBe(302);
  });
});
