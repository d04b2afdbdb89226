-- Demo data: enough that every screen has something to show on first start.
--
-- Demo accounts (the README lists them):
--   admin@example.com   admin-demo-pass    administrator (news manager, user list, bans)
--   artist@example.com  artist-demo-pass   The Paper Lanterns: tracks, followers, plays, sales, comments
--   fan@example.com     fan-demo-pass      rileyspins: follows, purchases, recent plays, a wishlist
-- Every other seeded account signs in with the password demo-pass.
--
-- Data only: users are created the way sign-up creates them, so the profile trigger makes their
-- profiles, and counts (followers) are kept by the schema's own triggers. Dates are relative to now(),
-- so the demo never ages. Audio, artwork and profile pictures are generated and uploaded after this
-- file by supabase/local/seed-media.ts (file_url, artwork_url, peaks and image URLs start empty).
-- Written for PostgreSQL 15 and later.

-- random() below is seeded, so every reset (and both PGlite and PostgreSQL) gives the same demo.
select setseed(0.2024);

create temporary table demo_artists (
  n integer primary key,
  email text,
  password text,
  artist_name text,
  genres text[],
  short_description text,
  bio text,
  website text,
  twitter text,
  instagram text,
  country text,
  joined_days_ago integer
);

insert into demo_artists values
  (1, 'emberroad@example.com', 'demo-pass', 'Ember Road', '{Rock}',
   'Three-piece heartland rock from Portland: loud guitars and louder choruses.',
   'Ember Road started in a rented garage off Sandy Boulevard in 2016 and never really left. Dana Cole sings and plays a battered Telecaster, Luis Ortega holds down the bass, and Mack Ferris hits the drums harder than anyone asked him to. Their songs are about long drives, small towns and the people who stay.',
   'https://emberroad.example', 'emberroadband', 'emberroad', 'United States', 410),
  (2, 'maravale@example.com', 'demo-pass', 'Mara Vale', '{Pop,Electronic}',
   'Bedroom synth-pop about night buses, small victories and calling home.',
   'Mara Vale writes and produces everything in a spare room in Manchester, on a laptop and a thrift-shop keyboard. Her songs sound like the moment the streetlights come on: bright, a little lonely, and impossible not to hum on the way home.',
   'https://maravale.example', 'maravalemusic', 'mara.vale', 'United Kingdom', 95),
  (3, 'ozireyes@example.com', 'demo-pass', 'Ozi Reyes', '{"Hip Hop"}',
   'Boom-bap storyteller from the Bronx with a soft spot for jazz samples.',
   'Ozi Reyes grew up on his mother''s salsa records and his older brother''s mixtapes. He raps about fire escapes, corner stores and the neighbours who raised him, over beats he chops from dusty jazz and soul LPs.',
   'https://ozireyes.example', 'ozireyes', 'ozi.reyes', 'United States', 300),
  (4, 'lumendrift@example.com', 'demo-pass', 'Lumen Drift', '{Electronic}',
   'Warm, slow-burning techno made on second-hand synths in Leipzig.',
   'Lumen Drift is the solo project of sound designer Jonas Weber. Each track starts as a long improvised take on a wall of patched-together hardware and is edited down to something you can dance to at four in the morning, or fall asleep to at midnight.',
   'https://lumendrift.example', 'lumendrift', 'lumen.drift', 'Germany', 30),
  (5, 'harborstreet@example.com', 'demo-pass', 'Harbor Street Quartet', '{Jazz}',
   'A Baltimore quartet playing swinging originals and late-night ballads.',
   'Piano, tenor saxophone, upright bass and drums. The Harbor Street Quartet has held down the Thursday slot at a Fells Point bar for six years, and their first album captures that room: a little smoky, very warm, and always swinging.',
   'https://harborstreetquartet.example', 'harborstreet4', 'harborstreetquartet', 'United States', 520),
  (6, 'claralindqvist@example.com', 'demo-pass', 'Clara Lindqvist', '{Classical}',
   'Pianist and composer writing quiet chamber pieces for piano and strings.',
   'Clara Lindqvist trained at the Royal College of Music in Stockholm and now writes short, intimate pieces for piano, often joined by a string trio. Her music is inspired by northern winters, kitchen windows and the sound of a house at rest.',
   'https://claralindqvist.example', 'claralindqvist', 'clara.lindqvist.piano', 'Sweden', 60),
  (7, 'siennabrooks@example.com', 'demo-pass', 'Sienna Brooks', '{R&B,Pop}',
   'Velvet-voiced R&B about slow Sundays and second chances.',
   'Sienna Brooks sang in her grandmother''s church choir in Atlanta before she could read. Her songs mix neo-soul chords, live bass and close harmonies, and she records every vocal in one take.',
   'https://siennabrooks.example', 'siennabrooks', 'sienna.brooks', 'United States', 150),
  (8, 'willowandpine@example.com', 'demo-pass', 'Willow & Pine', '{Folk,Indie}',
   'A husband-and-wife duo trading verses over fingerpicked guitars.',
   'Ada and Tom Whitlock recorded their first album around the kitchen table of their farmhouse in Vermont, with the windows open. Two guitars, two voices, occasionally a fiddle, and songs about the seasons and the small rituals of a shared life.',
   'https://willowandpine.example', 'willowandpine', 'willow.and.pine', 'United States', 240),
  (9, 'irontide@example.com', 'demo-pass', 'Iron Tide', '{Metal}',
   'Five-piece from Gothenburg: galloping riffs, twin leads, no ballads.',
   'Iron Tide play heavy metal the old way: twin guitar harmonies, a bass you can feel in your chest and choruses written for festival crowds. Their songs are sea stories, told at full volume.',
   'https://irontide.example', 'irontideband', 'irontide.official', 'Sweden', 350),
  (10, 'hattiemonroe@example.com', 'demo-pass', 'Hattie Monroe', '{Country}',
   'Texas songwriter with a pedal steel, a pickup truck and a lot of stories.',
   'Hattie Monroe writes country songs the way her granddad told stories: slowly, with a twist at the end. She tours the dance halls of central Texas with a four-piece band and a pedal steel player who never stops smiling.',
   'https://hattiemonroe.example', 'hattiemonroe', 'hattie.monroe', 'United States', 12),
  (11, 'slimwhitfield@example.com', 'demo-pass', 'Slim Whitfield', '{Blues}',
   'Chicago-style electric blues from a guitarist who learned on his uncle''s porch.',
   'Slim Whitfield was handed his uncle Ray''s hollow-body guitar at twelve and has been bending its strings ever since. He plays the clubs of Chicago''s South Side with an organ trio, and his records sound like a Saturday night there.',
   'https://slimwhitfield.example', 'slimwhitfield', 'slim.whitfield.blues', 'United States', 460),
  (12, 'artist@example.com', 'artist-demo-pass', 'The Paper Lanterns', '{Indie,Pop}',
   'Jangly indie pop from Glasgow about small towns and big skies.',
   'The Paper Lanterns are Iona, Callum and Ruairidh: three friends who met in a Glasgow record shop and bonded over chiming guitars and cheap synths. Their debut album, Small Town Satellites, was recorded over one rainy winter in a church hall on the south side. They play every song as if it might be the last one of the night.',
   'https://thepaperlanterns.example', 'paperlanterns', 'thepaperlanterns', 'United Kingdom', 200);

create temporary table demo_fans (
  n integer primary key,
  email text,
  password text,
  username text,
  bio text,
  favorite_genres text[],
  joined_days_ago integer
);

insert into demo_fans values
  (1, 'fan@example.com', 'fan-demo-pass', 'rileyspins',
   'Record-shop Saturdays, headphones the rest of the week. Always hunting for my next favourite band.',
   '{Indie,Folk,Electronic}', 180),
  (2, 'vinylvera@example.com', 'demo-pass', 'vinylvera',
   'Jazz on Sunday mornings, blues on Friday nights. 1,200 records and counting.', '{Jazz,Blues,Classical}', 330),
  (3, 'midnightmarco@example.com', 'demo-pass', 'midnight_marco',
   'Night-shift nurse. My commute soundtrack is beats, soul and anything with a good bassline.',
   '{"Hip Hop",R&B,Electronic}', 140),
  (4, 'cratediggerkim@example.com', 'demo-pass', 'cratediggerkim',
   'Sample hunter and part-time DJ. If it has a breakbeat, I want to hear it.', '{"Hip Hop",Jazz,Pop}', 260),
  (5, 'solandsound@example.com', 'demo-pass', 'sol_and_sound',
   'Songwriter in training. I learn a new song by ear every week.', '{Country,Folk}', 90),
  (6, 'bluenoteben@example.com', 'demo-pass', 'bluenote_ben',
   'Retired music teacher. Still think the saxophone is the best invention of the nineteenth century.',
   '{Jazz,Blues}', 400),
  (7, 'hannahhums@example.com', 'demo-pass', 'hannahhums',
   'I make playlists for every mood and most weather.', '{Pop,Indie,R&B}', 45),
  (8, 'theoonrepeat@example.com', 'demo-pass', 'theo_on_repeat',
   'Drummer. Metalhead. Will travel for a good festival line-up.', '{Metal,Rock}', 210),
  (9, 'priyaplays@example.com', 'demo-pass', 'priya_plays',
   'Piano student by day, synth tinkerer by night.', '{Classical,Electronic,Pop}', 20),
  (10, 'gustheroadie@example.com', 'demo-pass', 'gus_the_roadie',
   'Twenty years hauling amps for touring bands. I know a good live act when I hear one.',
   '{Rock,Country,Blues}', 500);

-- Fixed ids, so links to demo pages stay the same across resets.
create temporary table demo_ids as
select 'artist' as kind, n, format('a1000000-0000-4000-8000-%s', lpad(n::text, 12, '0'))::uuid as id from demo_artists
union all
select 'fan', n, format('f0000000-0000-4000-8000-%s', lpad(n::text, 12, '0'))::uuid from demo_fans;

-- Users, as GoTrue stores an email sign-up (empty token strings rather than nulls, as GoTrue expects).
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, created_at, updated_at,
  last_sign_in_at, raw_app_meta_data, raw_user_meta_data,
  confirmation_token, recovery_token, email_change_token_new, email_change
)
select
  '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
  extensions.crypt(u.password, extensions.gen_salt('bf')), u.joined, u.joined, u.joined,
  now() - interval '2 days', u.app_metadata, u.user_metadata, '', '', '', ''
from (
  select 'ad000000-0000-4000-8000-000000000001'::uuid as id, 'admin@example.com' as email,
    'admin-demo-pass' as password, now() - interval '600 days' as joined,
    '{"provider": "email", "providers": ["email"], "role": "admin"}'::jsonb as app_metadata,
    '{"email_verified": true}'::jsonb as user_metadata
  union all
  select i.id, a.email, a.password, now() - make_interval(days => a.joined_days_ago),
    '{"provider": "email", "providers": ["email"]}',
    jsonb_build_object('role', 'artist', 'artist_name', a.artist_name, 'genres', a.genres,
      'paypal_email', 'payouts+' || split_part(a.email, '@', 1) || '@example.com', 'email_verified', true)
  from demo_artists a join demo_ids i on i.kind = 'artist' and i.n = a.n
  union all
  select i.id, f.email, f.password, now() - make_interval(days => f.joined_days_ago),
    '{"provider": "email", "providers": ["email"]}',
    jsonb_build_object('role', 'fan', 'username', f.username, 'favorite_genres', f.favorite_genres,
      'email_verified', true)
  from demo_fans f join demo_ids i on i.kind = 'fan' and i.n = f.n
) u;

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id,
  jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
  'email', u.last_sign_in_at, u.created_at, u.created_at
from auth.users u
where u.email like '%@example.com';

-- The profiles the sign-up trigger created, filled in as their owners would.
update public.artist_profiles p set
  short_description = a.short_description,
  bio = a.bio,
  website = a.website,
  social_links = jsonb_build_object('twitter', a.twitter, 'instagram', a.instagram),
  created_at = now() - make_interval(days => a.joined_days_ago)
from demo_artists a join demo_ids i on i.kind = 'artist' and i.n = a.n
where p.id = i.id;

update public.fan_profiles p set
  bio = f.bio,
  created_at = now() - make_interval(days => f.joined_days_ago)
from demo_fans f join demo_ids i on i.kind = 'fan' and i.n = f.n
where p.id = i.id;

-- Upcoming shows: some already played, most still ahead.
update public.artist_profiles p set tour_dates = shows.tour_dates
from (
  select i.id, jsonb_agg(jsonb_build_object(
      'date', to_char(current_date + s.days_from_now, 'YYYY-MM-DD'), 'venue', s.venue, 'city', s.city)
    order by s.days_from_now) as tour_dates
  from (values
    (1, -20, 'Doug Fir Lounge', 'Portland, OR'), (1, 18, 'The Crocodile', 'Seattle, WA'),
    (1, 25, 'Bottom of the Hill', 'San Francisco, CA'),
    (2, 12, 'Band on the Wall', 'Manchester'), (2, 40, 'The Lexington', 'London'),
    (3, 9, 'Bowery Ballroom', 'New York, NY'), (3, 33, 'Union Transfer', 'Philadelphia, PA'),
    (4, -35, 'Distillery', 'Leipzig'), (4, 22, 'Tresor', 'Berlin'), (4, 50, 'De School', 'Amsterdam'),
    (5, -7, 'An die Musik', 'Baltimore, MD'), (5, 7, 'An die Musik', 'Baltimore, MD'),
    (5, 30, 'Blues Alley', 'Washington, DC'),
    (6, 28, 'Konserthuset Stora Salen', 'Stockholm'), (6, 64, 'Wigmore Hall', 'London'),
    (7, 15, 'Variety Playhouse', 'Atlanta, GA'), (7, 45, 'The Hamilton', 'Washington, DC'),
    (8, -60, 'Higher Ground', 'Burlington, VT'), (8, 21, 'The Parlor Room', 'Northampton, MA'),
    (9, -14, 'Trädgår''n', 'Gothenburg'), (9, 38, 'Tavastia', 'Helsinki'), (9, 80, 'Rockefeller', 'Oslo'),
    (10, 5, 'Gruene Hall', 'New Braunfels, TX'), (10, 19, 'Broken Spoke', 'Austin, TX'),
    (10, 47, 'Billy Bob''s Texas', 'Fort Worth, TX'),
    (11, -3, 'Kingston Mines', 'Chicago, IL'), (11, 26, 'Buddy Guy''s Legends', 'Chicago, IL'),
    (12, -42, 'King Tut''s Wah Wah Hut', 'Glasgow'), (12, 10, 'Sneaky Pete''s', 'Edinburgh'),
    (12, 24, 'The Deaf Institute', 'Manchester'), (12, 52, 'Oslo Hackney', 'London')
  ) as s(artist, days_from_now, venue, city)
  join demo_ids i on i.kind = 'artist' and i.n = s.artist
  group by i.id
) shows
where p.id = shows.id;

update public.artist_payout_settings s set
  payment_settings = '{"minimum_price": 0.99, "default_currency": "GBP", "auto_withdraw": true, "withdraw_threshold": 100}'
from demo_ids i where i.kind = 'artist' and i.n = 12 and s.artist_id = i.id;

update public.fan_payout_settings s set
  payment_settings = '{"paypal_email": "riley.paypal@example.com", "default_currency": "USD"}'
from demo_ids i where i.kind = 'fan' and i.n = 1 and s.fan_id = i.id;

-- Releases. An album's tracks share its title, release date and label; release dates are days before
-- today (negative: still upcoming, visible only to its artist until the day comes). Track and release
-- ids derive from the titles, so they too stay the same across resets.
create temporary table demo_tracks as
select i.id as artist_id, t.*,
  case when t.type = 'album' then md5('demo album: ' || t.album_title) else md5('demo single: ' || t.title) end::uuid
    as release_id
from (values
  (1, 'Open Highway', 'album', 'Headlights & Static', 1, 'Rock', 'Heartland Rock', 1.29, true,
   'The album opener: windows down, radio up, nowhere in particular to be.', 'Rust Belt Records', 240),
  (1, 'Static on the Radio', 'album', 'Headlights & Static', 2, 'Rock', 'Garage Rock', 1.29, true,
   'Two chords, one crackling AM station and a chorus built for shouting along.', 'Rust Belt Records', 240),
  (1, 'Gasoline Heart', 'album', 'Headlights & Static', 3, 'Rock', 'Heartland Rock', 1.29, true,
   'A song about a hometown that runs on coffee, overtime and stubborn hope.', 'Rust Belt Records', 240),
  (1, 'Porch Light', 'album', 'Headlights & Static', 4, 'Rock', 'Roots Rock', 1.29, true,
   'The slow one: for everyone who ever left the light on for somebody.', 'Rust Belt Records', 240),
  (1, 'Burn the Map', 'single', null, null, 'Rock', 'Garage Rock', 1.49, false,
   'Recorded live to tape in a single afternoon, amps as loud as the landlord allowed.', null, 45),
  (2, 'Small Victories', 'album', 'Small Victories', 1, 'Pop', 'Synth-pop', 1.29, false,
   'A pep talk in four minutes, for days when getting out of bed counts.', 'Tandem Tapes', 300),
  (2, 'Neon Laundromat', 'album', 'Small Victories', 2, 'Pop', 'Synth-pop', 1.29, false,
   'Written at 2 a.m. while a spin cycle kept the beat.', 'Tandem Tapes', 300),
  (2, 'Call Me When You Land', 'album', 'Small Victories', 3, 'Pop', 'Dream Pop', 1.29, false,
   'A long-distance love song with a chorus that lifts off like the plane in it.', 'Tandem Tapes', 300),
  (2, 'Night Bus Home', 'single', null, null, 'Pop', 'Synth-pop', 0.99, false,
   'Upper deck, front seat, city lights sliding past the window.', null, 120),
  (2, 'Paper Planes in June', 'single', null, null, 'Pop', 'Dream Pop', 1.29, true,
   'Hazy summer pop about the friends you only see once a year.', null, 30),
  (2, 'Glow', 'single', null, null, 'Electronic', 'Synthwave', 1.29, false,
   'Mara''s first club track: arpeggios, handclaps and a bassline that refuses to sit still.', null, 8),
  (3, 'Intro (Sirens)', 'album', 'Fire Escape Sessions', 1, 'Hip Hop', 'Boom Bap', 0.99, false,
   'The neighbourhood wakes up: a short scene-setter built on a looped vibraphone.', 'Uptown Loop', 200),
  (3, 'Fire Escape', 'album', 'Fire Escape Sessions', 2, 'Hip Hop', 'Boom Bap', 1.29, true,
   'Summer nights on the fire escape, planning a life bigger than the block.', 'Uptown Loop', 200),
  (3, 'Corner Store Philosophy', 'album', 'Fire Escape Sessions', 3, 'Hip Hop', 'Conscious Hip Hop', 1.29, true,
   'Everything Ozi learned about life he learned from Mr. Kim behind the counter.', 'Uptown Loop', 200),
  (3, 'Mama''s Records', 'album', 'Fire Escape Sessions', 4, 'Hip Hop', 'Jazz Rap', 1.29, true,
   'A thank-you note to his mother, sampled from her own record collection.', 'Uptown Loop', 200),
  (3, 'Six Train Thoughts', 'single', null, null, 'Hip Hop', 'Jazz Rap', 1.49, false,
   'One verse, one subway ride, written between 125th Street and Pelham Bay.', null, 60),
  (4, 'Amber Circuit', 'single', null, null, 'Electronic', 'Deep Techno', 1.49, false,
   'Eight minutes of slowly unfolding analogue warmth, edited down to a radio-friendly five.', 'Halbton', 90),
  (4, 'Lowlight', 'single', null, null, 'Electronic', 'Ambient Techno', 1.29, false,
   'For the last hour of the night, when the lights come down and the crowd thins out.', 'Halbton', 20),
  (4, 'Tramlines', 'single', null, null, 'Electronic', 'Minimal Techno', 1.29, false,
   'Built from field recordings of Leipzig''s trams, rebuilt into a rolling groove.', 'Halbton', 150),
  (5, 'Harbor Lights', 'album', 'Blue Hour at the Harbor', 1, 'Jazz', 'Hard Bop', 1.29, true,
   'A brisk opener with a tenor solo that takes the long way home.', 'Fells Point Jazz', 365),
  (5, 'Fells Point Shuffle', 'album', 'Blue Hour at the Harbor', 2, 'Jazz', 'Swing', 1.29, true,
   'The tune the regulars request every Thursday, captured at last.', 'Fells Point Jazz', 365),
  (5, 'Ballad for Ada', 'album', 'Blue Hour at the Harbor', 3, 'Jazz', 'Ballad', 1.29, true,
   'Written by the pianist for his daughter, played as softly as the room allowed.', 'Fells Point Jazz', 365),
  (5, 'Last Ferry', 'album', 'Blue Hour at the Harbor', 4, 'Jazz', 'Post-Bop', 1.29, true,
   'The closer: an unhurried walk down to the water after the last set.', 'Fells Point Jazz', 365),
  (6, 'Étude I: First Snow', 'album', 'Winter Études', 1, 'Classical', 'Contemporary Classical', 0.99, true,
   'Solo piano: the first quiet morning of winter, everything muffled and new.', null, 180),
  (6, 'Étude II: Frost on Glass', 'album', 'Winter Études', 2, 'Classical', 'Chamber Music', 0.99, true,
   'Piano and string trio trace patterns like ice creeping across a window.', null, 180),
  (6, 'Étude III: Thaw', 'album', 'Winter Études', 3, 'Classical', 'Chamber Music', 0.99, true,
   'The cycle ends as the snow gives way: slow, patient and full of light.', null, 180),
  (6, 'Nocturne for a Small Kitchen', 'single', null, null, 'Classical', 'Solo Piano', 1.29, true,
   'Recorded late at night on the upright piano in Clara''s kitchen, creaks and all.', null, 40),
  (7, 'Sunday Slow', 'single', null, null, 'R&B', 'Neo-Soul', 1.29, false,
   'Coffee, the good record player and nowhere to be until Monday.', 'Peachtree Sound', 75),
  (7, 'Second Chances', 'single', null, null, 'R&B', 'Contemporary R&B', 1.49, false,
   'A duet with her own harmonies about letting someone back in, carefully.', 'Peachtree Sound', 25),
  (7, 'Honey & Smoke', 'single', null, null, 'R&B', 'Neo-Soul', 1.29, false,
   'Live bass, brushed drums and a vocal recorded in a single take.', 'Peachtree Sound', 130),
  (8, 'Morning Kettle', 'album', 'Kitchen Table Songs', 1, 'Folk', 'Indie Folk', 0.99, true,
   'The album begins where their days do: with the kettle on and the radio low.', 'Cedar House', 220),
  (8, 'Two Chairs', 'album', 'Kitchen Table Songs', 2, 'Folk', 'Indie Folk', 0.99, true,
   'A love song about the two chairs on the porch and twenty years of sunsets.', 'Cedar House', 220),
  (8, 'River Road', 'album', 'Kitchen Table Songs', 3, 'Folk', 'Americana', 0.99, true,
   'Fingerpicked guitars and a fiddle, following the river into town.', 'Cedar House', 220),
  (8, 'Lantern Song', 'album', 'Kitchen Table Songs', 4, 'Folk', 'Traditional Folk', 0.99, true,
   'A lullaby in the old style, sung in harmony around one microphone.', 'Cedar House', 220),
  (8, 'Wild Thyme', 'single', null, null, 'Folk', 'Traditional Folk', 1.29, true,
   'A new arrangement of a tune Ada''s grandmother used to whistle in the garden.', null, 15),
  (9, 'Northern Gales', 'album', 'Northern Gales', 1, 'Metal', 'Heavy Metal', 1.29, false,
   'The title track: a storm in five minutes, twin guitars at full sail.', 'Kattegat Records', 270),
  (9, 'Longship', 'album', 'Northern Gales', 2, 'Metal', 'Power Metal', 1.29, false,
   'Oars in, shields up: a galloping riff built for a festival crowd.', 'Kattegat Records', 270),
  (9, 'Tidecaller', 'album', 'Northern Gales', 3, 'Metal', 'Heavy Metal', 1.29, false,
   'The closing epic, about the sea taking back what it is owed.', 'Kattegat Records', 270),
  (9, 'Stormbreaker', 'single', null, null, 'Metal', 'Speed Metal', 1.49, false,
   'The fastest song they have ever written, and they are not sorry.', 'Kattegat Records', 100),
  (9, 'Salt and Iron', 'single', null, null, 'Metal', 'Melodic Metal', 1.49, false,
   'A shanty turned into a war cry, complete with a crowd choir.', 'Kattegat Records', 35),
  (10, 'Pickup Truck Prayer', 'single', null, null, 'Country', 'Country Pop', 1.29, false,
   'A prayer said on a dirt road at dusk, with the radio for a choir.', 'Lone Star Porch', 200),
  (10, 'Dust on the Dashboard', 'single', null, null, 'Country', 'Honky Tonk', 1.29, false,
   'A two-step about everything you find under the seats of an old truck.', 'Lone Star Porch', 55),
  (10, 'Mesquite Moon', 'single', null, null, 'Country', 'Americana', 1.29, true,
   'Pedal steel and a full moon over the Hill Country.', 'Lone Star Porch', 140),
  (11, 'South Side Sunday', 'album', 'South Side Sunday', 1, 'Blues', 'Chicago Blues', 1.29, true,
   'A twelve-bar stroll through the neighbourhood, organ trio in tow.', 'Maxwell Street Records', 320),
  (11, 'Uncle Ray''s Guitar', 'album', 'South Side Sunday', 2, 'Blues', 'Electric Blues', 1.29, true,
   'Played on the very hollow-body guitar the song is about.', 'Maxwell Street Records', 320),
  (11, 'Rain on the El', 'album', 'South Side Sunday', 3, 'Blues', 'Chicago Blues', 1.29, true,
   'A slow blues for a wet night under the elevated tracks.', 'Maxwell Street Records', 320),
  (11, 'Last Call Shuffle', 'single', null, null, 'Blues', 'Electric Blues', 1.49, true,
   'What the band plays when the bartender flicks the lights.', null, 50),
  (12, 'Satellite Town', 'album', 'Small Town Satellites', 1, 'Indie', 'Indie Pop', 1.29, true,
   'The title track of the debut: a small town seen from the last bus out.', 'Kelvin Records', 160),
  (12, 'Bicycle Bell', 'album', 'Small Town Satellites', 2, 'Indie', 'Jangle Pop', 1.29, true,
   'Chiming guitars and a bicycle bell, recorded in one go in the church hall.', 'Kelvin Records', 160),
  (12, 'Harbour Wall', 'album', 'Small Town Satellites', 3, 'Indie', 'Indie Pop', 1.29, true,
   'Sitting on the harbour wall with chips, watching the ferries come and go.', 'Kelvin Records', 160),
  (12, 'All the Lights on Byres Road', 'album', 'Small Town Satellites', 4, 'Indie', 'Dream Pop', 1.29, true,
   'The album''s closer, a slow-burning singalong for the walk home.', 'Kelvin Records', 160),
  (12, 'Greenhouse', 'single', null, null, 'Indie', 'Jangle Pop', 0.99, true,
   'Written in Iona''s gran''s greenhouse, tomatoes and all.', 'Kelvin Records', 60),
  (12, 'Kites Over the Clyde', 'single', null, null, 'Indie', 'Dream Pop', 1.29, true,
   'A windy-day song with a chorus that keeps climbing.', 'Kelvin Records', 12),
  (12, 'Northern Line', 'single', null, null, 'Indie', 'Indie Pop', 1.49, true,
   'The first song from the next record, out in two weeks.', 'Kelvin Records', -14)
) as t(artist, title, type, album_title, track_number, genre, subgenre, price, allow_pay_more, description, label,
       released_days_ago)
join demo_ids i on i.kind = 'artist' and i.n = t.artist;

-- Three albums have their own price, below the sum of their tracks; the others cost that sum.
insert into public.releases (id, artist_id, kind, title, price, created_at)
select t.release_id, t.artist_id, case when t.type = 'album' then 'album' else 'single' end,
  coalesce(t.album_title, t.title),
  case coalesce(t.album_title, '')
    when 'Small Town Satellites' then 4.49 when 'Headlights & Static' then 4.49 when 'Northern Gales' then 2.99 end,
  min(now() - make_interval(days => greatest(t.released_days_ago, 0) + 3))
from pg_temp.demo_tracks t
group by 1, 2, 3, 4, 5;

insert into public.tracks (
  id, release_id, artist_id, title, track_number, genre, subgenre, price, allow_pay_more,
  description, label, release_date, created_at
)
select
  md5('demo track: ' || t.title)::uuid, t.release_id, t.artist_id, t.title, t.track_number, t.genre,
  t.subgenre, t.price, t.allow_pay_more, t.description, t.label, current_date - t.released_days_ago,
  now() - make_interval(days => greatest(t.released_days_ago, 0) + 3)
from pg_temp.demo_tracks t;

insert into public.merch (
  artist_id, title, price, allow_pay_more, description, stock, ships_from, shipping_home, shipping_elsewhere, created_at
)
select i.id, m.title, m.price, m.allow_pay_more, m.description, m.stock, m.ships_from, m.shipping_home,
  m.shipping_elsewhere, now() - make_interval(days => m.days_ago)
from (values
  (12, 'Small Town Satellites (12" vinyl)', 24.00, true,
   'Heavyweight black vinyl in a gatefold sleeve, with a lyric sheet hand-stamped by the band.', 40, 'GB', 4.50, 12.00, 150),
  (12, 'Lantern logo T-shirt', 22.00, false, 'Soft organic cotton, printed in Glasgow. Sizes S to XXL.', null, 'GB', 3.00, 8.00, 120),
  (12, 'Risograph tour poster', 12.00, false, 'A3 two-colour risograph print of this year''s tour dates.', 3, 'GB', 2.00, 5.00, 30),
  (1, 'Headlights & Static (cassette)', 9.00, false, 'Limited run of 200 cassettes with a download code.', 200, 'US', 3.00, 9.00, 230),
  (3, 'Fire Escape Sessions tote bag', 15.00, false, 'Heavy canvas tote with the album''s fire-escape artwork.', null, 'US', 4.00, 10.00, 190),
  (5, 'Blue Hour at the Harbor (CD)', 12.00, true, 'Digipak CD signed by all four members.', 25, 'IE', 2.50, 6.00, 350),
  (9, 'Northern Gales hoodie', 45.00, false, 'Black heavyweight hoodie with the longship back print.', 0, 'NO', 6.00, 15.00, 260),
  (10, 'Embroidered trucker cap', 25.00, false, 'Mesh-back cap with Hattie''s lasso logo, one size.', null, 'US', 5.00, 12.00, 10)
) as m(artist, title, price, allow_pay_more, description, stock, ships_from, shipping_home, shipping_elsewhere, days_ago)
join demo_ids i on i.kind = 'artist' and i.n = m.artist;

-- Who follows whom: each fan's artists. The demo artist (12) has every fan; the dates spread over months.
insert into public.followers (artist_id, fan_id, created_at)
select a.id, f.id, now() - make_interval(days => least(fan.joined_days_ago, 5 + (f.n * 7 + a.n * 13) % 170))
from (values
  (1, array[12, 8, 4, 2, 6, 7]),
  (2, array[5, 6, 11, 12]),
  (3, array[3, 7, 4, 12]),
  (4, array[3, 5, 12, 6]),
  (5, array[10, 8, 12]),
  (6, array[5, 11, 12, 7]),
  (7, array[2, 7, 12, 8]),
  (8, array[9, 1, 12]),
  (9, array[6, 4, 2, 12]),
  (10, array[1, 10, 11, 9, 12])
) as follows(fan_n, artist_ns)
cross join lateral unnest(follows.artist_ns) as followed(n)
join demo_ids a on a.kind = 'artist' and a.n = followed.n
join demo_ids f on f.kind = 'fan' and f.n = follows.fan_n
join demo_fans fan on fan.n = follows.fan_n;

-- Fellow artists follow each other too (followers are any users, not only fans).
insert into public.followers (artist_id, fan_id, created_at)
select a.id, b.id, now() - interval '20 days'
from (values (12, 8), (8, 12), (1, 11), (5, 11), (2, 7)) as pairs(artist_n, follower_n)
join demo_ids a on a.kind = 'artist' and a.n = pairs.artist_n
join demo_ids b on b.kind = 'artist' and b.n = pairs.follower_n;

-- Where listeners and buyers are (analytics geography): mostly the US and the UK, a long tail, and one in
-- twenty unknown, as Cloudflare reports it. Derived from a key, so every reset gives the same map.
create function pg_temp.demo_country(key text) returns text language sql immutable as $$
  select (array['US', 'US', 'US', 'US', 'US', 'GB', 'GB', 'GB', 'GB', 'DE', 'DE', 'FR', 'CA', 'CA', 'AU', 'NL', 'SE',
    'JP', 'BR', null])[1 + get_byte(decode(md5(key), 'hex'), 1) % 20]
$$;

-- Plays over the last 60 days (never before a track's release): a third by visitors, the rest by fans;
-- busier for newer releases and for the demo artist, so dashboards and charts have shape.
insert into public.analytics_events (type, track_id, artist_id, user_id, created_at, country)
select 'play', t.id, t.artist_id,
  case when random() < 0.33 then null else (select array_agg(id order by n) from demo_ids where kind = 'fan')[1 + floor(random() * 10)::int] end,
  now() - random() * least(interval '60 days', now() - t.release_date::timestamptz),
  pg_temp.demo_country(t.title || play)
from public.tracks t
cross join lateral generate_series(
  1,
  12 + get_byte(decode(md5(t.title), 'hex'), 0) % 40
    + case when t.artist_id = 'a1000000-0000-4000-8000-000000000012' then 50 else 0 end
    + case when t.release_date > current_date - 60 then 25 else 0 end
) as play
where t.release_date <= current_date;

-- The demo fan's own listening of the last weeks, for Recently Played.
insert into public.analytics_events (type, track_id, artist_id, user_id, created_at, country)
select 'play', t.id, t.artist_id, 'f0000000-0000-4000-8000-000000000001', s.played_at, 'GB'
from (select k, now() - make_interval(hours => (k * 31) % 700 + 1) as played_at from generate_series(1, 24) k) s
join lateral (
  select followed.* from public.tracks followed
  where followed.release_date < s.played_at
    and followed.artist_id in (
      select artist_id from public.followers where fan_id = 'f0000000-0000-4000-8000-000000000001')
  order by md5(followed.title || s.k) limit 1
) t on true;

-- Sales: about one fan in five buys a given track, a little more for the demo artist; some pay more
-- than the price when the artist allows it. Each is an order paid (below), followed by its download.
create temporary table demo_sales (amount numeric, track_id uuid, user_id uuid, created_at timestamptz, country text);

insert into demo_sales (amount, track_id, user_id, created_at, country)
select t.price + case when t.allow_pay_more and random() < 0.3 then 1 else 0 end, t.id, f.id,
  now() - random() * least(interval '60 days', now() - t.release_date::timestamptz),
  pg_temp.demo_country(t.title || f.id)
from public.tracks t
cross join demo_ids f
where f.kind = 'fan'
  and t.release_date <= current_date
  and get_byte(decode(md5(t.title || f.id), 'hex'), 0)
    < case when t.artist_id = 'a1000000-0000-4000-8000-000000000012' then 110 else 45 end;

-- The demo artist's earlier months, so each analytics period tells its own story: quieter listening and
-- a few sales from each release up to 60 days ago.
insert into public.analytics_events (type, track_id, artist_id, user_id, created_at, country)
select 'play', t.id, t.artist_id, null,
  now() - interval '60 days' - (play / 40.0) * (now() - interval '60 days' - t.release_date::timestamptz),
  pg_temp.demo_country(t.title || 'earlier' || play)
from public.tracks t
cross join generate_series(1, 40) as play
where t.artist_id = 'a1000000-0000-4000-8000-000000000012' and t.release_date < current_date - 60;

insert into demo_sales (amount, track_id, user_id, created_at, country)
select t.price, t.id, f.id,
  now() - interval '60 days' - (f.n / 11.0) * (now() - interval '60 days' - t.release_date::timestamptz),
  pg_temp.demo_country(t.title || 'earlier' || f.id)
from public.tracks t
cross join demo_ids f
where f.kind = 'fan' and t.artist_id = 'a1000000-0000-4000-8000-000000000012'
  and t.release_date < current_date - 60
  and get_byte(decode(md5(t.title || f.id || 'earlier'), 'hex'), 0) < 90;

-- Each sale as the checkout made it: an order in its artist's currency with one line and the artist's
-- 88%, its purchase, and then paid (which credits the artist's ledger, settled for all but the last week).
alter table demo_sales add column order_id uuid default gen_random_uuid(), add column line_id uuid default gen_random_uuid();

insert into public.orders (id, buyer_id, buyer_email, currency, total_cents, state, country, created_at)
select s.order_id, s.user_id, u.email, private.artist_currency(t.artist_id), round(s.amount * 100), 'open', s.country,
  s.created_at - interval '1 minute'
from demo_sales s join public.tracks t on t.id = s.track_id join auth.users u on u.id = s.user_id;

insert into public.order_lines (id, order_id, artist_id, kind, item_id, title, amount_cents, total_cents,
  artist_share_cents, crate_cents)
select s.line_id, s.order_id, t.artist_id, 'track', t.id, t.title, round(s.amount * 100), round(s.amount * 100),
  round(s.amount * 88), round(s.amount * 100) - round(s.amount * 88)
from demo_sales s join public.tracks t on t.id = s.track_id;

insert into public.purchases (amount, track_id, user_id, created_at, country, order_line_id)
select s.amount, s.track_id, s.user_id, s.created_at, s.country, s.line_id from demo_sales s;

update public.orders o set state = 'paid', paid_at = s.created_at, payment_intent = 'pi_demo_' || replace(s.order_id::text, '-', '')
from demo_sales s where o.id = s.order_id;

insert into public.analytics_events (type, track_id, artist_id, user_id, created_at, country)
select 'download', p.track_id, p.artist_id, p.user_id, p.created_at + interval '2 minutes', p.country
from public.purchases p;

insert into public.comments (content, track_id, user_id, created_at)
select c.content, t.id, u.id, now() - make_interval(hours => c.hours_ago)
from (values
  ('Satellite Town', 1, 'This sounds exactly like the last bus home feels. On repeat all week.', 30),
  ('Satellite Town', 7, 'That guitar line in the second verse! Saw you at King Tut''s and it was even better live.', 200),
  ('Bicycle Bell', 3, 'The bell at the end made me laugh out loud on the train.', 90),
  ('Bicycle Bell', 9, 'Such a happy song. Learned the chords on piano already.', 400),
  ('Harbour Wall', 5, 'Chips on the harbour wall is the most Scottish thing ever and I love it.', 600),
  ('All the Lights on Byres Road', 1, 'The build in the last minute gets me every single time.', 6),
  ('Greenhouse', 10, 'Give Iona''s gran a writing credit, honestly.', 50),
  ('Kites Over the Clyde', 7, 'Summer anthem sorted. Can''t wait for the new record!', 3),
  ('Kites Over the Clyde', 1, 'Played this for my sister and now she''s a fan too.', 20),
  ('Open Highway', 8, 'Windows down, volume up. Perfect road-trip opener.', 700),
  ('Porch Light', 10, 'Heard this one in Portland last year. Still gives me chills.', 300),
  ('Fire Escape', 3, 'The way the sample flips on the hook is crazy.', 150),
  ('Mama''s Records', 4, 'Dug up the original record after hearing this. Beautiful tribute.', 500),
  ('Six Train Thoughts', 3, 'Wrote this whole verse on one ride? Respect.', 40),
  ('Amber Circuit', 3, 'Night-shift fuel. Thank you for this one.', 100),
  ('Lowlight', 9, 'That pad sound is unreal. What synth is it?', 12),
  ('Ballad for Ada', 6, 'The piano intro alone is worth the price. Gorgeous.', 800),
  ('Fells Point Shuffle', 2, 'Finally a recording of the Thursday tune! Swings like mad.', 350),
  ('Étude II: Frost on Glass', 9, 'I''m learning Étude I for my exam. These are so lovely.', 250),
  ('Nocturne for a Small Kitchen', 2, 'You can hear the house breathing. Wonderful.', 60),
  ('Sunday Slow', 7, 'My Sunday morning playlist just got a new opener.', 80),
  ('Second Chances', 3, 'Those harmonies are butter.', 25),
  ('Two Chairs', 5, 'Made my mum cry in the best way.', 180),
  ('Wild Thyme', 1, 'Lovely arrangement. The whistle melody is stuck in my head.', 15),
  ('Longship', 8, 'Galloping riff of the year. Saw them in Gothenburg, the floor was shaking.', 120),
  ('Salt and Iron', 8, 'The crowd choir at the end!!', 10),
  ('Dust on the Dashboard', 5, 'Two-stepped round the kitchen to this one.', 70),
  ('Mesquite Moon', 10, 'That pedal steel solo is pure Texas.', 220),
  ('Rain on the El', 6, 'A proper slow blues. The organ swell at the end is perfect.', 450),
  ('Last Call Shuffle', 10, 'Played it three times before last call at my own bar.', 35),
  ('Glow', 9, 'Didn''t know I needed Mara on the dance floor. Now I do.', 4)
) as c(track_title, fan_n, content, hours_ago)
join public.tracks t on t.title = c.track_title
join demo_ids u on u.kind = 'fan' and u.n = c.fan_n;

-- An artist replying on their own track.
insert into public.comments (content, track_id, user_id, created_at)
select 'Thank you all! We recorded this one in a single take, so it means a lot that you hear the joy in it.',
  t.id, t.artist_id, now() - interval '5 hours'
from public.tracks t where t.title = 'Bicycle Bell';

insert into public.news_items (title, content, type, active, created_at)
values
  ('Welcome to the marketplace',
   'Independent artists keep 88% of every digital sale here. Follow the artists you love and hear what they release first.',
   'announcement', true, now() - interval '30 days'),
  ('New: waveform player',
   'Track pages now show the shape of every song as you listen. Click anywhere on the waveform to jump.',
   'update', true, now() - interval '6 days'),
  ('Featured artist: The Paper Lanterns',
   'Glasgow''s jangliest trio have a new single, Kites Over the Clyde, and a UK tour on the way.',
   'info', true, now() - interval '2 days'),
  ('Scheduled maintenance',
   'Uploads will be paused for about an hour on Sunday morning while we upgrade our storage.',
   'update', false, now() - interval '45 days'),
  ('Holiday gift cards',
   'Gift cards are coming soon: the perfect present for the music lover who already has everything.',
   'announcement', false, now() - interval '90 days');

-- Store settings: the demo artist's are fully set up, a few others have tiers or bundles, and the
-- rest hold the defaults the dashboard would create.
insert into public.store_settings (artist_id, pricing_tiers, discounts, bundling)
select i.id, s.pricing_tiers::jsonb, s.discounts::jsonb, s.bundling::jsonb
from (values
  (12,
   '[{"id": "standard", "name": "Standard", "price": 0.99, "description": "Single track, MP3 320 kbps"},
     {"id": "lossless", "name": "Lossless", "price": 1.99, "description": "Single track, WAV and FLAC"},
     {"id": "supporter", "name": "Supporter", "price": 4.99, "description": "Lossless download plus a thank-you in the next liner notes"}]',
   format('[{"id": "launch", "code": "LANTERNS20", "percentage": 20, "validUntil": "%s", "active": true},
            {"id": "winter", "code": "WINTER10", "percentage": 10, "validUntil": "%s", "active": false}]',
     to_char(current_date + 30, 'YYYY-MM-DD'), to_char(current_date - 40, 'YYYY-MM-DD')),
   '{"enabled": true, "discountPercentage": 15}'),
  (5,
   '[{"id": "standard", "name": "Standard", "price": 1.29, "description": "Studio master, MP3"},
     {"id": "hi-res", "name": "Hi-res", "price": 2.49, "description": "24-bit studio master"}]',
   '[]', '{"enabled": true, "discountPercentage": 20}'),
  (9, '[]',
   format('[{"id": "tour", "code": "TIDETOUR", "percentage": 25, "validUntil": "%s", "active": true}]',
     to_char(current_date + 60, 'YYYY-MM-DD')),
   '{"enabled": true, "discountPercentage": 10}'),
  (2, '[]', '[]', '{"enabled": false, "discountPercentage": 10}')
) as s(artist, pricing_tiers, discounts, bundling)
join demo_ids i on i.kind = 'artist' and i.n = s.artist;

insert into public.store_settings (artist_id)
select id from demo_ids where kind = 'artist'
on conflict (artist_id) do nothing;

-- Analytics, as the aggregation would compute it from the sales and downloads above: totals, the
-- change of the last 30 days against the 30 before (percent), eight weekly points, the top tracks and
-- where the downloads came from (the artist's home country first).
insert into public.analytics (artist_id, revenue, downloads, top_tracks, geography)
select i.id,
  jsonb_build_object('total', sales.revenue, 'trend', sales.revenue_trend, 'history', weeks.revenue),
  jsonb_build_object('total', sales.downloads, 'trend', sales.downloads_trend, 'history', weeks.downloads),
  top.tracks,
  geography.countries
from demo_ids i
join demo_artists a on i.kind = 'artist' and a.n = i.n
cross join lateral (
  select
    revenue, downloads,
    case when earlier_revenue = 0 then 0 else round((recent_revenue / earlier_revenue - 1) * 100, 1) end
      as revenue_trend,
    case when earlier_downloads = 0 then 0 else round((recent_downloads::numeric / earlier_downloads - 1) * 100, 1) end
      as downloads_trend
  from (
    select
      coalesce(sum(p.amount), 0) as revenue,
      count(p.id) as downloads,
      coalesce(sum(p.amount) filter (where p.created_at > now() - interval '30 days'), 0) as recent_revenue,
      coalesce(sum(p.amount) filter (where p.created_at <= now() - interval '30 days'), 0) as earlier_revenue,
      count(p.id) filter (where p.created_at > now() - interval '30 days') as recent_downloads,
      count(p.id) filter (where p.created_at <= now() - interval '30 days') as earlier_downloads
    from public.purchases p where p.artist_id = i.id
  ) totals
) sales
cross join lateral (
  select
    jsonb_agg(jsonb_build_object('date', to_char(w.week, 'YYYY-MM-DD'), 'value', w.revenue) order by w.week) as revenue,
    jsonb_agg(jsonb_build_object('date', to_char(w.week, 'YYYY-MM-DD'), 'value', w.downloads) order by w.week) as downloads
  from (
    select week, coalesce(sum(p.amount), 0) as revenue, count(p.id) as downloads
    from generate_series(date_trunc('week', now()) - interval '7 weeks', date_trunc('week', now()), interval '1 week') as week
    left join public.purchases p
      on p.artist_id = i.id and p.created_at >= week and p.created_at < week + interval '1 week'
    group by week
  ) w
) weeks
cross join lateral (
  select coalesce(jsonb_agg(jsonb_build_object('id', s.id, 'title', s.title, 'downloads', s.downloads,
      'revenue', s.revenue) order by s.downloads desc, s.title), '[]') as tracks
  from (
    select t.id, t.title, count(p.id) as downloads, coalesce(sum(p.amount), 0) as revenue
    from public.tracks t join public.purchases p on p.track_id = t.id
    where t.artist_id = i.id
    group by t.id
    order by downloads desc, t.title
    limit 5
  ) s
) top
cross join lateral (
  select coalesce(jsonb_agg(jsonb_build_object('country', c.country, 'downloads', c.downloads)
      order by c.downloads desc, c.country), '[]') as countries
  from (
    select country, round(sales.downloads * share)::integer as downloads
    from (values (a.country, 0.45), ('United States', 0.2), ('United Kingdom', 0.15), ('Germany', 0.1),
                 ('Japan', 0.05), ('Canada', 0.05)) as s(country, share)
    -- the home country's share already counts its own entry
    where s.country <> a.country or s.share = 0.45
  ) c
  where c.downloads > 0
) geography;

-- Playlists: the demo fan's public one (fixed id, for links and tests) and a private one, and an
-- artist's public mix of others' music. Tracks go in in the order listed.
insert into public.playlists (id, owner_id, name, description, is_public, created_at)
select p.id::uuid, i.id, p.name, p.description, p.is_public, now() - p.age
from (values
  ('b1000000-0000-4000-8000-000000000001', 'fan', 1, 'Last bus home', 'Glasgow guitar pop and slow blues for the ride back.', true, interval '20 days'),
  ('b1000000-0000-4000-8000-000000000002', 'fan', 1, 'Saturday kitchen', null, false, interval '9 days'),
  ('b1000000-0000-4000-8000-000000000003', 'artist', 12, 'Lanterns on the road', 'What we play in the van between gigs.', true, interval '30 days')
) as p(id, kind, n, name, description, is_public, age)
join demo_ids i on i.kind = p.kind and i.n = p.n;

insert into public.playlist_tracks (playlist_id, track_id)
select p.playlist_id::uuid, t.id
from (values
  ('b1000000-0000-4000-8000-000000000001', 'Satellite Town', 1),
  ('b1000000-0000-4000-8000-000000000001', 'Rain on the El', 2),
  ('b1000000-0000-4000-8000-000000000001', 'Bicycle Bell', 3),
  ('b1000000-0000-4000-8000-000000000001', 'Mesquite Moon', 4),
  ('b1000000-0000-4000-8000-000000000001', 'Harbour Wall', 5),
  ('b1000000-0000-4000-8000-000000000002', 'Greenhouse', 1),
  ('b1000000-0000-4000-8000-000000000002', 'Glow', 2),
  ('b1000000-0000-4000-8000-000000000003', 'South Side Sunday', 1),
  ('b1000000-0000-4000-8000-000000000003', 'Last Call Shuffle', 2),
  ('b1000000-0000-4000-8000-000000000003', 'Open Highway', 3)
) as p(playlist_id, title, place)
join public.tracks t on t.title = p.title
order by p.playlist_id, p.place;

-- rileyspins' wishlist: the four newest released releases they own nothing of, on their page.
insert into public.wishlist (fan_id, release_id, created_at)
select i.id, w.release_id, now() - make_interval(days => w.n::integer)
from demo_ids i
cross join lateral (
  select r.release_id, row_number() over (order by r.released desc, r.release_id) as n
  from (
    select t.release_id, max(t.release_date) as released
    from public.tracks t
    where t.release_date <= current_date
      and not exists (select 1 from public.purchases p join public.tracks o on o.id = p.track_id
        where p.user_id = i.id and o.release_id = t.release_id)
    group by t.release_id
  ) r
  order by r.released desc, r.release_id
  limit 4
) w
where i.kind = 'fan' and i.n = 1;

drop table demo_ids, demo_fans, demo_artists;

-- The demo catalogue is already out: its releases were announced long ago (the announcement job tells
-- only of releases whose day comes from now on; one dated ahead waits for its day).
update private.release_announcements w set announced_at = now(), notified = 0, mailed = 0
where exists (select 1 from public.tracks t where t.release_id = w.release_id and t.release_date <= current_date);
