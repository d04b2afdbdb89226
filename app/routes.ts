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
  layout("routes/_layout.tsx", [
    index("routes/home.tsx"),
    route("about", "routes/about.tsx"),
    route("terms", "routes/terms.tsx"),
    route("privacy", "routes/privacy.tsx"),
    route("dashboard/artist", "routes/dashboard.artist.tsx"),
    route("dashboard/fan", "routes/dashboard.fan.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
