import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  // Sign-in and sign-up stand outside the shared layout (spec: route table).
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("register/artist", "routes/register.artist.tsx"),
  route("register/fan", "routes/register.fan.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("logout", "routes/logout.tsx"),
  // The header search's dropdown results (JSON).
  route("search/artists", "routes/search.artists.ts"),
  // Resource route: the player records a play here (no page).
  route("track/:id/play", "routes/track.play.ts"),
  layout("routes/_layout.tsx", [
    index("routes/home.tsx"),
    route("about", "routes/about.tsx"),
    route("terms", "routes/terms.tsx"),
    route("privacy", "routes/privacy.tsx"),
    route("discover", "routes/discover.tsx"),
    route("genres", "routes/genres.tsx"),
    route("genres/:genre", "routes/genres.$genre.tsx"),
    route("artists", "routes/artists.tsx"),
    route("artist/:id", "routes/artist.$id.tsx"),
    route("fan/:id", "routes/fan.$id.tsx"),
    route("dashboard/artist", "routes/dashboard.artist.tsx"),
    route("dashboard/fan", "routes/dashboard.fan.tsx"),
    route("track/:id", "routes/track.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
