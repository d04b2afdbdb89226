import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import {
  albumTrackLimit,
  artistShare,
  cartKinds,
  catalogLimits,
  codeLimits,
  commentMaxLength,
  currencies,
  maximumPrice,
  membershipLimits,
  minimumChargeCents,
  minimumPrice,
  newsletterLimits,
  orderStates,
  payoutMethods,
  payoutStates,
  playlistLimits,
  releaseDates,
  soldKinds,
  wishlistLimit,
  textLimits,
} from "../../app/lib/constants.ts";
import { downloadMadeFormats, madeFormatNames } from "../../supabase/functions/_shared/made-formats.ts";
import { mailKindLabels } from "../../app/lib/mail-kinds.ts";
import { databaseUrl } from "../../scripts/lib/supabase-cli.ts";

// The limits the forms state (app/lib/constants.ts) are the ones the database holds: each length,
// price, place and date bound is read from the migrated database's check constraints, and each count a
// trigger holds (code 54000) from its function's source, and compared; a length bound in the database
// that no constant states fails too. So are the made formats' names (the registry,
// supabase/functions/_shared/made-formats.ts). It needs the PostgreSQL server and the migrated template
// `npm run test:postgres` makes.
const serverUrl = process.env.TEST_DATABASE_URL;
const template = process.env.TEST_DATABASE_TEMPLATE;

/** Each text column with a length bound, and the constant that states it. */
const lengths: Record<string, number> = {
  "tracks.title": textLimits.title,
  "releases.title": textLimits.title,
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
  "order_lines.tracking": textLimits.tracking,
  "gifts.message": textLimits.giftMessage,
  // Bounds with no form of their own: an email's longest form (RFC 5321), a site's origin, and a tax's
  // name as the payment provider gives it ("VAT", "Sales tax").
  "artist_payout_settings.paypal_email": 254,
  "newsletter_signups.email": 254,
  "gifts.recipient_email": 254,
  "analytics_events.embedded_on": 255,
  "order_lines.tax_name": 50,
  "membership_tiers.name": membershipLimits.name,
  "membership_tiers.description": membershipLimits.description,
  // The payment provider's subscription id.
  "memberships.subscription_id": 255,
};

/**
 * Each count a trigger holds, and the constant that states it: the trigger function, and where in its
 * source the bound is written.
 */
const triggerBounds: { what: string; fn: string; bound: RegExp; stated: number }[] = [
  { what: "download codes made at once", fn: "create_download_codes", bound: /how_many > (\d+) then/, stated: codeLimits.atOnce },
  { what: "download codes a release", fn: "create_download_codes", bound: /\+ how_many > (\d+) then/, stated: codeLimits.perRelease },
  { what: "download codes an artist an hour", fn: "hourly_bound", bound: /'download codes' then (\d+)/, stated: codeLimits.perHour },
  {
    what: "code attempts an account an hour",
    fn: "redeem_download_code",
    bound: /a\.account = me\) >= (\d+)/,
    stated: codeLimits.attemptsPerHour,
  },
  {
    what: "newsletter signups an address a day",
    fn: "newsletter_signup",
    bound: /r\.email = address\) >= (\d+)/,
    stated: newsletterLimits.perAddressDaily,
  },
  {
    what: "newsletter signups a client an hour",
    fn: "newsletter_signup",
    bound: /interval '1 hour'\) >= (\d+)/,
    stated: newsletterLimits.perClientHourly,
  },
  { what: "tracks a playlist", fn: "place_playlist_track", bound: /track_count >= (\d+)/, stated: playlistLimits.tracks },
  {
    what: "years a release is announced ahead",
    fn: "release_date_in_range",
    bound: /interval '(\d+) years'/,
    stated: releaseDates.yearsAhead,
  },
];

/**
 * Each count the one per-owner trigger (private.limit_per_owner) or the per-request one holds for a
 * table: the trigger, whose second argument is the bound, and the constant that states it.
 */
const triggerArguments: { what: string; trigger: string; stated: number }[] = [
  { what: "tracks one request publishes", trigger: "tracks_limit_per_request", stated: catalogLimits.tracksAtOnce },
  { what: "tracks an artist", trigger: "tracks_limit", stated: catalogLimits.artistTracks },
  { what: "merch items an artist", trigger: "merch_limit", stated: catalogLimits.merchItems },
  { what: "releases an artist", trigger: "releases_limit", stated: catalogLimits.artistTracks },
  { what: "comments a minute on a track", trigger: "comments_limit_on_a_track", stated: catalogLimits.commentsPerMinute },
  { what: "playlists a user", trigger: "playlists_limit", stated: playlistLimits.playlists },
  { what: "releases on a fan's wishlist", trigger: "wishlist_limit", stated: wishlistLimit },
  { what: "membership tiers an artist", trigger: "membership_tiers_limit", stated: membershipLimits.tiers },
];

/** Each list of values the app reads, and the columns whose checks allow exactly those. */
const valueLists: { what: string; values: readonly string[]; columns: string[] }[] = [
  { what: "the kinds of thing a cart holds", values: cartKinds, columns: ["cart_lines.kind"] },
  { what: "the kinds of thing sold", values: soldKinds, columns: ["order_lines.kind"] },
  { what: "an order's states", values: orderStates, columns: ["orders.state"] },
  { what: "a payout's states", values: payoutStates, columns: ["payouts.state"] },
  { what: "the payout methods", values: payoutMethods, columns: ["payouts.method", "artist_payout_settings.payout_method"] },
  { what: "the kinds of mail", values: Object.keys(mailKindLabels), columns: ["mails.kind"] },
];

type Held = {
  constraints: { table: string; definition: string }[];
  functions: Map<string, string>;
  triggers: Map<string, string[]>;
  madeFormats: string;
  shares: { track: number; album: number; merch: number };
  minimumCharges: Record<string, number>;
};

/**
 * The migrated database's check constraints on `public`, the source of its `private` functions, and the
 * arguments of the triggers on `public` tables.
 */
async function heldByTheDatabase(): Promise<Held> {
  const copy = `limits_${process.pid}_${Date.now().toString(36)}`;
  const server = new pg.Client({ connectionString: serverUrl });
  await server.connect();
  try {
    // A copy: other suites copy the template meanwhile, which a session on it would stop.
    await server.query(`create database ${copy} template ${template}`);
    const database = new pg.Client({ connectionString: databaseUrl(serverUrl!, copy) });
    await database.connect();
    try {
      const { rows: constraints } = await database.query<{ table: string; definition: string }>(
        `select c.relname as table, pg_get_constraintdef(k.oid) as definition
           from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
          where k.contype = 'c' and (n.nspname = 'public'
            -- and the mail kinds' check (the Admin Dashboard names each kind of mail not sent)
            or (n.nspname = 'private' and c.relname = 'mails' and k.conname = 'mails_kind_check'))`,
      );
      const { rows: functions } = await database.query<{ name: string; source: string }>(
        `select p.proname as name, p.prosrc as source
           from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'private'`,
      );
      const { rows: triggers } = await database.query<{ name: string; args: Buffer }>(
        `select t.tgname as name, t.tgargs as args
           from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and not t.tgisinternal`,
      );
      const { rows: shares } = await database.query<{ track: number; album: number; merch: number }>(
        `select private.artist_share_percent('track') as track, private.artist_share_percent('album') as album,
                private.artist_share_percent('merch') as merch`,
      );
      const { rows: minimumCharges } = await database.query<{ currency: string; cents: number }>(
        "select c as currency, private.minimum_charge_cents(c) as cents from unnest($1::text[]) c",
        [[...currencies]],
      );
      const { rows: made } = await database.query<{ definition: string }>(
        "select pg_get_constraintdef(k.oid) as definition from pg_constraint k where k.conname = 'made_files_format_check'",
      );
      return {
        constraints,
        functions: new Map(functions.map((row) => [row.name, row.source])),
        // The arguments as PostgreSQL keeps them: each ended by a zero byte.
        triggers: new Map(triggers.map((row) => [row.name, row.args.toString("utf8").split("\0").slice(0, -1)])),
        madeFormats: made[0]?.definition ?? "",
        shares: shares[0]!,
        minimumCharges: Object.fromEntries(minimumCharges.map((row) => [row.currency, row.cents])),
      };
    } finally {
      await database.end();
    }
  } finally {
    await server.query(`drop database if exists ${copy}`);
    await server.end();
  }
}

describe.skipIf(!serverUrl || !template)("the catalog's limits", () => {
  let database: Held;
  beforeAll(async () => {
    database = await heldByTheDatabase();
  });

  it("are the database's: lengths, prices, album places, playlist places and release dates", () => {
    const { constraints } = database;
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
    for (const table of ["tracks", "merch", "releases"]) {
      expect(definitions(table)).toContain(`price >= ${minimumPrice}`);
      expect(definitions(table)).toContain(`price <= (${maximumPrice})`);
    }
    expect(definitions("tracks")).toMatch(new RegExp(`track_number <= ${albumTrackLimit}\\b`));
    expect(definitions("playlist_tracks")).toMatch(new RegExp(`"?position"? <= ${playlistLimits.tracks}\\b`));
    expect(definitions("tracks")).toContain(`release_date >= '${releaseDates.earliest}'::date`);
  });

  it("names the made formats as the registry does: the made files' check, and the formats a download takes", () => {
    const quoted = (text: string) => [...text.matchAll(/'(\w+)'/g)].map((match) => match[1]).sort();
    expect(quoted(database.madeFormats)).toEqual([...madeFormatNames].sort());
    const takes = /format not in \(([^)]*)\)/.exec(database.functions.get("take_downloads") ?? "")?.[1] ?? "";
    expect(quoted(takes)).toEqual(["original", ...downloadMadeFormats].sort());
  });

  it.each(triggerBounds)("counts $what as the database's trigger does", ({ fn, bound, stated }) => {
    const source = database.functions.get(fn);
    expect(source, `private.${fn}`).toBeDefined();
    expect(Number(bound.exec(source!)?.[1])).toBe(stated);
  });

  it.each(valueLists)("names $what as the database's checks allow them", ({ values, columns }) => {
    for (const column of columns) {
      const [table, name] = column.split(".");
      const allowed = database.constraints
        .filter((constraint) => constraint.table === table)
        .map((constraint) => new RegExp(`\\(${name} = ANY \\(ARRAY\\[([^\\]]*)\\]`).exec(constraint.definition)?.[1])
        .find(Boolean);
      expect(allowed, column).toBeDefined();
      expect([...allowed!.matchAll(/'(\w+)'/g)].map((match) => match[1]).sort(), column).toEqual([...values].sort());
    }
  });

  it("holds every checkout to the smallest payment the cart states, in each currency", () => {
    expect(database.minimumCharges).toEqual(minimumChargeCents);
  });

  it("gives artists the shares the app states, as the database prices every cart", () => {
    expect(database.shares).toEqual({
      track: artistShare.digitalPercent,
      album: artistShare.digitalPercent,
      merch: artistShare.physicalPercent,
    });
  });

  it.each(triggerArguments)("counts $what as the database's trigger does", ({ trigger, stated }) => {
    const args = database.triggers.get(trigger);
    expect(args, trigger).toBeDefined();
    expect(Number(args![1])).toBe(stated);
  });
});
