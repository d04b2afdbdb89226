import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/lib/context.server";

const serverBuild = () => import("virtual:react-router/server-build");
const requestHandler = createRequestHandler(serverBuild, import.meta.env.MODE);

export default {
  async fetch(request, env, ctx) {
    const context = new RouterContextProvider();
    const { assets } = await serverBuild();
    context.set(cloudflareContext, { env, ctx, buildVersion: assets.version });
    return requestHandler(request, context);
  },
} satisfies ExportedHandler<Env>;
