import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  // Sign-in and sign-up stand outside the shared layout (spec: route table).
  route("login", "routes/account/login.tsx"),
  route("register", "routes/account/register.tsx"),
  route("register/artist", "routes/account/register-artist.tsx"),
  route("register/fan", "routes/account/register-fan.tsx"),
  route("forgot-password", "routes/account/forgot-password.tsx"),
  route("reset-password", "routes/account/reset-password.tsx"),
  route("logout", "routes/account/logout.tsx"),
  // Resource route: a short-lived access token for the browser's Realtime connection (JSON, never cached).
  route("account/realtime-token", "routes/account/realtime-token.ts"),
  // The header search's dropdown results (JSON).
  route("search/artists", "routes/catalog/artist-search.ts"),
  // Resource route: a track's audio, as a redirect to a freshly signed URL (the browser's own player).
  route("track/:id/audio", "routes/catalog/track-audio.ts"),
  // Resource route: the site's player asks here for a track's signed audio URL and stored waveform (JSON).
  route("track/:id/source", "routes/catalog/track-source.ts"),
  // Resource routes: a track's file, and an album's files in one zip, for their artist and their buyers.
  route("track/:id/download", "routes/fan/track-download.ts"),
  route("album/:id/download", "routes/fan/album-download.ts"),
  // Resource route: the player records a play here (no page).
  route("track/:id/play", "routes/catalog/track-play.ts"),
  // Resource route: every Follow button posts here.
  route("artist/:id/follow", "routes/catalog/follow.ts"),
  // Resource route: the track page's Like button posts here.
  route("track/:id/like", "routes/catalog/like.ts"),
  // Resource route: a release page's "Add to wishlist" posts here.
  route("release/:id/wishlist", "routes/catalog/wishlist.ts"),
  // Resource route: resumable uploads (TUS) of the upload form and the profile pictures, passed on to Storage.
  route("uploads/resumable/:uploadId?", "routes/account/resumable-upload.ts"),
  // Resource route: a form removes a file it stored ahead of saving.
  route("uploads/discard", "routes/account/discard-upload.ts"),
  // Resource routes for crawlers: what they may visit, and the sitemap index and its pages (XML).
  route("robots.txt", "routes/site/robots.ts"),
  route("sitemap.xml", "routes/site/sitemap.ts"),
  route("sitemap/:kind/:page", "routes/site/sitemap-page.ts"),
  // Resource route: the players other sites frame (HTML of their own, not the app).
  route("embed/:kind/:id", "routes/embed/embed.tsx"),
  // Any other address under /embed: a plain 404, framed by no one (not the app's page).
  route("embed/*", "routes/embed/embed-missing.ts"),
  // Resource route: a release's download codes as CSV, for its artist.
  route("dashboard/artist/codes/:id/export", "routes/studio/codes-export.ts"),
  route("dashboard/artist/payments/sales.csv", "routes/studio/sales-export.ts"),
  // Resource route: the tax Crate collected as the seller, as CSV, for administrators.
  route("admin/tax.csv", "routes/admin/tax-export.ts"),
  // The marketplace operator's resource routes (app/routes/operator), for commands, not people: each
  // answers only a request carrying the Worker's own secret. Queues streaming renditions (npm run renditions).
  route("renditions", "routes/operator/renditions.ts"),
  // Runs the payout job now (npm run payouts), as the media Worker's Cron Trigger does every hour.
  route("payouts", "routes/operator/payout-job.ts"),
  // Runs the announcement job now (npm run announcements), as the media Worker's Cron Trigger does every hour.
  route("announcements", "routes/operator/announcement-job.ts"),
  // Resource route: the artist's newsletter signups as CSV.
  route("dashboard/artist/newsletter.csv", "routes/studio/newsletter-export.ts"),
  // Resource routes: feeds of releases (Atom and RSS 2.0), the site's and each artist's.
  route("feed.atom", "routes/catalog/feed.ts", { id: "site-feed-atom" }),
  route("feed.rss", "routes/catalog/feed.ts", { id: "site-feed-rss" }),
  route("artist/:id/feed.atom", "routes/catalog/feed.ts", { id: "artist-feed-atom" }),
  route("artist/:id/feed.rss", "routes/catalog/feed.ts", { id: "artist-feed-rss" }),
  // Resource route: oEmbed's answer for a page's player (JSON).
  route("oembed", "routes/embed/oembed.ts"),
  // Resource route: a payment provider's events about payments, signed by it (JSON): /webhooks/stripe is
  // Stripe's; each provider of app/lib/providers/payments.server.ts has its own address here.
  route("webhooks/:provider", "routes/checkout/payment-webhook.ts"),
  layout("routes/_layout.tsx", [
    index("routes/catalog/home.tsx"),
    route("about", "routes/site/about.tsx"),
    route("terms", "routes/site/terms.tsx"),
    route("privacy", "routes/site/privacy.tsx"),
    route("discover", "routes/catalog/discover.tsx"),
    route("cart", "routes/checkout/cart.tsx"),
    route("checkout/done", "routes/checkout/done.tsx"),
    // A guest's receipt link: what their order bought, to download without an account (signed, 30 days).
    route("receipt/:pass", "routes/fan/receipt.tsx"),
    // A gift's claim link: what was given, claimed by the link's holder once signed in (signed; no lapse).
    route("gift/:pass", "routes/fan/gift.tsx"),
    // A release mail's unsubscribe link (signed; no sign-in), and its one-click POST (RFC 8058).
    route("unsubscribe/:pass", "routes/account/unsubscribe.tsx"),
    // A newsletter signup's confirmation link (signed; no sign-in): the page, and its Confirm button's POST.
    route("newsletter/:pass", "routes/account/newsletter-confirmation.tsx"),
    // The bell's page: what happened for the signed-in user (works without JavaScript).
    route("notifications", "routes/account/notifications.tsx"),
    route("genres", "routes/catalog/genres.tsx"),
    route("genres/:genre", "routes/catalog/genre.tsx"),
    route("artists", "routes/catalog/artists.tsx"),
    route("artist/:id", "routes/catalog/artist.tsx"),
    route("fan/:id", "routes/catalog/fan.tsx"),
    route("dashboard/artist", "routes/studio/dashboard.tsx"),
    route("dashboard/artist/tracks", "routes/studio/tracks.tsx"),
    // The spec's library alias: the same list at its own address.
    route("dashboard/artist/library", "routes/studio/tracks.tsx", { id: "routes/studio/library" }),
    route("dashboard/artist/tracks/:id", "routes/studio/track-edit.tsx"),
    route("dashboard/artist/upload", "routes/studio/upload.tsx"),
    route("dashboard/artist/media", "routes/studio/media.tsx"),
    route("dashboard/artist/payments", "routes/studio/payments.tsx"),
    route("dashboard/artist/store", "routes/studio/store.tsx"),
    route("dashboard/artist/analytics", "routes/studio/analytics.tsx"),
    route("dashboard/artist/profile", "routes/studio/profile.tsx"),
    route("dashboard/artist/settings", "routes/studio/settings.tsx"),
    route("dashboard/artist/codes", "routes/studio/codes.tsx"),
    route("dashboard/artist/orders", "routes/studio/orders.tsx"),
    route("dashboard/artist/memberships", "routes/studio/memberships.tsx"),
    route("dashboard/artist/codes/:id", "routes/studio/release-codes.tsx"),
    route("dashboard/fan", "routes/fan/dashboard.tsx"),
    route("dashboard/fan/purchased", "routes/fan/purchased.tsx"),
    route("dashboard/fan/following", "routes/fan/following.tsx"),
    route("dashboard/fan/memberships", "routes/fan/memberships.tsx"),
    route("dashboard/fan/recent", "routes/fan/recent.tsx"),
    // The sidebar's Recently Played: the same list for any signed-in user.
    route("recent", "routes/fan/recent.tsx", { id: "routes/fan/recent-any-user" }),
    route("dashboard/fan/payments", "routes/fan/payments.tsx"),
    route("dashboard/fan/profile", "routes/fan/profile.tsx"),
    route("dashboard/fan/settings", "routes/fan/settings.tsx"),
    route("redeem", "routes/fan/redeem.tsx"),
    // A download in a made format (MP3, FLAC) while it is being made: "Preparing your download".
    route("download/:kind/:id", "routes/fan/download.tsx"),
    route("liked", "routes/fan/liked.tsx"),
    route("playlists", "routes/fan/playlists.tsx"),
    route("playlist/:id", "routes/catalog/playlist.tsx"),
    route("admin", "routes/admin/dashboard.tsx"),
    route("admin/news", "routes/admin/news.tsx"),
    route("track/:id", "routes/catalog/track.tsx"),
    route("album/:id", "routes/catalog/album.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
