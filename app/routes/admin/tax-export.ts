import { readOrThrow } from "~/lib/backend/backend.server";
import { csvCents, csvResponse } from "~/lib/media/csv.server";
import { TaxCollectedSchema } from "~/lib/schemas/admin";
import { requireAdmin } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import { figuresPeriodOf } from "./figures-period.server";
import type { Route } from "./+types/tax-export";

/**
 * The tax Crate collected as the seller over a period (`?figures=`, as the Admin Dashboard names it; 30 days
 * unless another), per country, tax, rate and currency, as CSV for the returns: administrators alone, as the
 * database judges too.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  const period = figuresPeriodOf(new URL(request.url));
  const rows = readOrThrow(await context.get(supabaseContext).rpc("tax_collected", { days: period.days }), {
    what: "tax collected",
    schema: TaxCollectedSchema,
  });
  return csvResponse(
    ["country", "tax", "rate (%)", "currency", "sales before tax", "tax collected", "tax given back", "tax owed"],
    rows.map((row) => [
      row.country ?? "",
      row.tax_name ?? "",
      row.rate === null ? "" : String(row.rate),
      row.currency,
      csvCents(row.sales),
      csvCents(row.tax),
      csvCents(row.refunded_tax),
      csvCents(row.tax - row.refunded_tax),
    ]),
    `Crate tax collected, ${period.label.toLowerCase()}.csv`,
  );
}
