import { data, href } from "react-router";
import { readOrThrow } from "~/lib/backend/backend.server";
import { isUuid } from "~/lib/catalog/catalog";
import { formatDownloadCode } from "~/lib/format";
import { uncached } from "~/lib/http/http-cache";
import { attachment, safeFileName } from "~/lib/media/downloads";
import { ReleaseCodesSchema } from "~/lib/schemas/studio-data";
import { requireArtist } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/codes-export";

/** The backend's most rows a request (Supabase's max_rows): the export reads the codes this many at a time. */
const exportPage = 1000;

/**
 * A field of the CSV: quoted where it holds a comma, quote or line break, and never read as a formula by a
 * spreadsheet (a redeemer's name may start with `=`).
 */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A moment as people read it in a spreadsheet: `2026-11-28 14:05 UTC`. */
const readableTime = (timestamp: string | null) =>
  timestamp ? `${new Date(timestamp).toISOString().slice(0, 16).replace("T", " ")} UTC` : "";

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
  const lines = ["code,redeem at,status,made,redeemed by,redeemed on"];
  const redeemAt = new URL(href("/redeem"), request.url);
  for (let page = 1; ; page += 1) {
    const list = readOrThrow(await supabase.rpc("release_codes", { release_id: params.id, page, page_size: exportPage }), {
      what: "download codes to export",
      schema: ReleaseCodesSchema,
    });
    for (const code of list.codes) {
      const status = code.redeemed_at ? "redeemed" : code.disabled_at ? "disabled" : "unused";
      const shown = formatDownloadCode(code.code);
      redeemAt.search = new URLSearchParams({ code: shown }).toString();
      lines.push(
        [shown, redeemAt.href, status, readableTime(code.created_at), code.redeemed_by ?? "", readableTime(code.redeemed_at)]
          .map(csvField)
          .join(","),
      );
    }
    if (page * exportPage >= list.total) break;
  }
  return new Response(`${lines.join("\r\n")}\r\n`, {
    headers: {
      ...uncached,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": attachment(`${safeFileName(release.title)} codes.csv`),
    },
  });
}
