import { href } from "react-router";
import { ArtistGrid } from "~/components/catalog/artist-card";
import { ProfileImage } from "~/components/catalog/artist-image";
import { notFoundBoundary } from "~/components/error-boundary";
import { Badge } from "~/components/ui/badge";
import { EmptyState } from "~/components/ui/empty-state";
import { notFound, readOrThrow } from "~/lib/backend/backend.server";
import { countOf, fanPath, isUuid } from "~/lib/catalog/catalog";
import { imageSizeOf } from "~/lib/media/image-size";
import { tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { publicPageHeaders } from "~/lib/http/http-cache";
import { pageMeta } from "~/lib/sharing/meta";
import { sharedPageMeta } from "~/lib/sharing/meta.server";
import { fanData } from "~/lib/sharing/structured-data.server";
import { FanPageSchema } from "~/lib/schemas/catalog-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/fan";

export const meta = ({ loaderData }: Route.MetaArgs) => loaderData?.meta ?? pageMeta("Fan not found", "This fan does not exist.");

export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw notFound("Fan not found");
  const fan = readOrThrow(await context.get(supabaseContext).rpc("fan_page", { fan_id: params.id }), {
    what: "fan page",
    schema: FanPageSchema,
    notFound: "Fan not found",
  });
  tagCachedAnswer(context, `user:${fan.id}`);
  // For link previews, made here so the page carries no builder.
  const origin = new URL(request.url).origin;
  const meta = sharedPageMeta(fan.username, `The artists ${fan.username} follows.`, {
    origin,
    path: fanPath(fan.id),
    type: "profile",
    image: fan.profile_image_url,
    imageSize: imageSizeOf(fan.profile_image_width, fan.profile_image_height),
    structuredData: fanData(origin, fan),
  });
  return { fan, meta };
}

export default function Fan({ loaderData }: Route.ComponentProps) {
  const { fan } = loaderData;
  return (
    <article>
      <header className="flex flex-col gap-5 rounded-3xl border border-stage-700 bg-gradient-to-br from-stage-800 to-stage-950 p-5 sm:flex-row sm:items-center sm:p-8">
        <ProfileImage
          name={fan.username}
          src={fan.profile_image_url}
          alt={fan.username}
          eager
          className="size-28 shrink-0 rounded-full sm:size-36"
          initialClassName="text-5xl"
        />
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-wider text-accent uppercase">Fan</p>
          <h1 className="mt-1 text-3xl font-bold break-words sm:text-4xl">{fan.username}</h1>
          <p className="mt-2 text-sm font-semibold text-ink">Following {countOf(fan.following.length, "artist")}</p>
          {fan.bio ? <p className="mt-3 max-w-2xl text-ink-muted">{fan.bio}</p> : null}
          {fan.favorite_genres.length > 0 ? (
            <div className="mt-4">
              <h2 className="sr-only">Favorite genres</h2>
              <ul aria-label="Favorite genres" className="flex flex-wrap gap-1.5">
                {fan.favorite_genres.map((genre) => (
                  <li key={genre}>
                    <Badge>{genre}</Badge>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      </header>
      <section aria-labelledby="following" className="mt-10">
        <h2 id="following" className="mb-4 text-2xl font-bold">
          Following
        </h2>
        {fan.following.length === 0 ? <EmptyState title="Not following anyone yet" /> : <ArtistGrid artists={fan.following} />}
      </section>
    </article>
  );
}

export const ErrorBoundary = notFoundBoundary({
  title: "Fan not found",
  reason: "The link may be mistyped, or the profile may have been removed.",
  links: [{ to: href("/discover"), label: "Discover artists" }],
});
