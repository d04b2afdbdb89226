import pg from "pg";
import { describe, expect, it } from "vitest";
import { albumTrackLimit, commentMaxLength, maximumPrice, minimumPrice, playlistLimits, textLimits } from "../../app/lib/constants.ts";
import { databaseUrl } from "../../scripts/lib/supabase-cli.ts";

// The limits the forms state (app/lib/constants.ts) are the ones the database holds: each length,
// price and place bound is read from the migrated database's check constraints and compared, and a
// length bound in the database that no constant states fails too. It needs the PostgreSQL server and
// the migrated template `npm run test:postgres` makes.
const serverUrl = process.env.TEST_DATABASE_URL;
const template = process.env.TEST_DATABASE_TEMPLATE;

/** Each text column with a length bound, and the constant that states it. */
const lengths: Record<string, number> = {
  "tracks.title": textLimits.title,
  "tracks.album_title": textLimits.title,
  "tracks.subgenre": textLimits.subgenre,
  "tracks.label": textLimits.label,
  "tracks.description": textLimits.description,
  "merch.title": textLimits.title,
  "merch.description": textLimits.description,
  "artist_profiles.artist_name": textLimits.artistName,
  "artist_profiles.short_description": textLimits.shortDescription,
  "artist_profiles.bio": textLimits.artistBio,
  "artist_profiles.website": textLimits.website,
  "fan_profiles.username": textLimits.username,
  "fan_profiles.bio": textLimits.fanBio,
  "news_items.title": textLimits.newsTitle,
  "news_items.content": textLimits.newsContent,
  "comments.content": commentMaxLength,
  "playlists.name": playlistLimits.name,
  "playlists.description": playlistLimits.description,
  // Bounds with no form of their own: an email's longest form (RFC 5321), a site's origin.
  "artist_payout_settings.paypal_email": 254,
  "analytics_events.embedded_on": 255,
};

async function checkConstraints(): Promise<{ table: string; definition: string }[]> {
  const copy = `limits_${process.pid}_${Date.now().toString(36)}`;
  const server = new pg.Client({ connectionString: serverUrl });
  await server.connect();
  try {
    // A copy: other suites copy the template meanwhile, which a session on it would stop.
    await server.query(`create database ${copy} template ${template}`);
    const database = new pg.Client({ connectionString: databaseUrl(serverUrl!, copy) });
    await database.connect();
    try {
      const { rows } = await database.query<{ table: string; definition: string }>(
        `select c.relname as table, pg_get_constraintdef(k.oid) as definition
           from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and k.contype = 'c'`,
      );
      return rows;
    } finally {
      await database.end();
    }
  } finally {
    await server.query(`drop database if exists ${copy}`);
    await server.end();
  }
}

describe.skipIf(!serverUrl || !template)("the catalog's limits", () => {
  it("are the database's: lengths, prices, album places and playlist places", async () => {
    const constraints = await checkConstraints();
    const held = new Map<string, number>();
    for (const { table, definition } of constraints) {
      for (const [, column, bound] of definition.matchAll(/char_length\((\w+)\) <= (\d+)/g)) held.set(`${table}.${column}`, Number(bound));
    }
    expect(Object.fromEntries(held)).toEqual(lengths);

    const definitions = (table: string) =>
      constraints
        .filter((constraint) => constraint.table === table)
        .map((constraint) => constraint.definition)
        .join("\n");
    for (const table of ["tracks", "merch"]) {
      expect(definitions(table)).toContain(`price >= ${minimumPrice}`);
      expect(definitions(table)).toContain(`price <= (${maximumPrice})`);
    }
    expect(definitions("tracks")).toMatch(new RegExp(`track_number <= ${albumTrackLimit}\\b`));
    expect(definitions("playlist_tracks")).toMatch(new RegExp(`"?position"? <= ${playlistLimits.tracks}\\b`));
  });
});
