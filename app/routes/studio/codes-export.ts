import { data, href } from "react-router";
import { readOrThrow } from "~/lib/backend/backend.server";
import { isUuid } from "~/lib/catalog/catalog";
import { backendMaxRows } from "~/lib/constants";
import { formatDownloadCode } from "~/lib/format";
import { uncached } from "~/lib/http/http-cache";
import { safeFileName } from "~/lib/media/downloads";
import { csvResponse, csvTime, csvTimeHeader } from "~/lib/media/csv.server";
import { ReleaseCodesSchema } from "~/lib/schemas/studio-data";
import { requireArtist } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/codes-export";

/**
 * Every code of one of the artist's releases, as CSV (code, where to redeem it, status, made, redeemed by,
 * redeemed on), newest first: the redeem address opens Crate's Redeem page with the code filled in.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  if (!isUuid(params.id)) throw data("Release not found", { status: 404, headers: uncached });
  const supabase = context.get(supabaseContext);
  const { data: release } = await supabase.from("releases").select("title").eq("id", params.id).eq("artist_id", artist.id).maybeSingle();
  if (!release) throw data("Release not found", { status: 404, headers: uncached });
  const rows: string[][] = [];
  const redeemAt = new URL(href("/redeem"), request.url);
  for (let page = 1; ; page += 1) {
    const list = readOrThrow(await supabase.rpc("release_codes", { release_id: params.id, page, page_size: backendMaxRows }), {
      what: "download codes to export",
      schema: ReleaseCodesSchema,
    });
    for (const code of list.codes) {
      const status = code.redeemed_at ? "redeemed" : code.disabled_at ? "disabled" : "unused";
      const shown = formatDownloadCode(code.code);
      redeemAt.search = new URLSearchParams({ code: shown }).toString();
      rows.push([shown, redeemAt.href, status, csvTime(code.created_at), code.redeemed_by ?? "", csvTime(code.redeemed_at)]);
    }
    if (page * backendMaxRows >= list.total) break;
  }
  return csvResponse(
    ["code", "redeem at", "status", csvTimeHeader("made"), "redeemed by", csvTimeHeader("redeemed on")],
    rows,
    `${safeFileName(release.title)} codes.csv`,
  );
}
