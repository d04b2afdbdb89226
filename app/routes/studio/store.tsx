import { useId } from "react";
import { Form, href } from "react-router";
import { CheckboxField, FormAlert, SubmitButton } from "~/components/form-controls";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { editRows, formFields, parseForm, replyWith, type FormValues, type RowList } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireArtist } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { StoreSettingsSchema, storeLimits } from "~/lib/schemas/studio";
import { StoreSettingsRowSchema } from "~/lib/schemas/studio-data";
import { supabaseContext } from "~/lib/session/session.server";
import { artistCurrency } from "~/lib/payments/currency.server";
import type { Route } from "./+types/store";

export const meta = () => pageMeta("Store Settings", "Pricing tiers, discount codes and bundles.");

const storePath = href("/dashboard/artist/store");
const columns = "pricing_tiers, discounts, bundling";
const listFields = [
  "tierId",
  "tierName",
  "tierPrice",
  "tierDescription",
  "discountId",
  "discountCode",
  "discountPercentage",
  "discountValidUntil",
  "discountMaxUses",
  "discountActive",
];

/** The artist's row, created with the spec's defaults on the first visit (spec section 4). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  const supabase = context.get(supabaseContext);
  const [read, currency] = await Promise.all([
    supabase.from("store_settings").select(columns).eq("artist_id", artist.id).maybeSingle(),
    artistCurrency(supabase, artist.id),
  ]);
  const row =
    read.data || read.error ? read : await supabase.from("store_settings").insert({ artist_id: artist.id }).select(columns).single();
  return { store: readOrThrow(row, { what: "store settings", schema: StoreSettingsRowSchema }), currency };
}

/**
 * Save, or change the rows being edited: Add and Remove post the whole form with an intent and get it
 * back with a row more or less, unsaved (so they work without JavaScript and nothing typed is lost).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const artist = requireArtist(request, context);
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "save");
  const submission = parseForm(StoreSettingsSchema, formData, { arrays: listFields });
  const values = submission.success ? submission.values : submission.reply.values;

  if (intent !== "save") {
    const edited = rowChange(values, intent);
    const notice = "Not saved yet: press Save store settings to keep your changes.";
    return replyWith({ fieldErrors: {}, formError: edited.problem, values: edited.values, notice: edited.problem ? null : notice }, 200);
  }
  if (!submission.success) return replyWith(submission.reply, 400);
  const { tiers, discounts, bundling } = submission.value;
  const { error } = await context
    .get(supabaseContext)
    .from("store_settings")
    .update({ pricing_tiers: tiers, discounts, bundling })
    .eq("artist_id", artist.id);
  if (error) return refusedWrite(error, { what: "saving store settings", values });
  return replyWith({ fieldErrors: {}, formError: null, values, notice: "Store settings saved" }, 200);
}

const tierRows: RowList = {
  id: "tierId",
  columns: ["tierId", "tierName", "tierPrice", "tierDescription"],
  limit: storeLimits.tiers,
  label: "pricing tiers",
};
const discountRows: RowList = {
  id: "discountId",
  columns: ["discountId", "discountCode", "discountPercentage", "discountValidUntil", "discountMaxUses"],
  limit: storeLimits.discounts,
  label: "discount codes",
};

/** What an Add or Remove button asks for: `add-tier`, `remove-discount:{id}` … */
function rowChange(values: FormValues, intent: string) {
  const [action = "", id = ""] = intent.split(":");
  const list = action.endsWith("-tier") ? tierRows : discountRows;
  return editRows(values, list, action.startsWith("add-") ? { add: true } : { remove: id }, ["discountActive"]);
}

export default function StoreSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { store, currency } = loaderData;
  const form = formFields(actionData);
  const id = useId();
  // What is being edited: the reply's rows after Add, Remove or a refused save; else the stored ones.
  const edited = actionData !== undefined;
  const tiers = edited
    ? form.list("tierId").map((tierId, row) => ({
        id: tierId,
        name: form.list("tierName")[row] ?? "",
        price: form.list("tierPrice")[row] ?? "",
        description: form.list("tierDescription")[row] ?? "",
      }))
    : store.pricing_tiers.map((tier) => ({ ...tier, price: String(tier.price), description: tier.description ?? "" }));
  const discounts = edited
    ? form.list("discountId").map((discountId, row) => ({
        id: discountId,
        code: form.list("discountCode")[row] ?? "",
        percentage: form.list("discountPercentage")[row] ?? "",
        validUntil: form.list("discountValidUntil")[row] ?? "",
        maxUses: form.list("discountMaxUses")[row] ?? "",
        active: form.list("discountActive").includes(discountId),
      }))
    : store.discounts.map((discount) => ({
        ...discount,
        percentage: String(discount.percentage),
        validUntil: discount.validUntil ?? "",
        maxUses: discount.maxUses === null ? "" : String(discount.maxUses),
      }));
  const bundlingEnabled = edited ? form.checked("bundlingEnabled") : store.bundling.enabled;
  const bundlingPercentage = edited ? form.text("bundlingPercentage") : String(store.bundling.discountPercentage);

  return (
    <>
      <DashboardHeader title="Store Settings">Pricing tiers, discount codes for your fans, and a discount on bundles.</DashboardHeader>
      <Form method="post" action={storePath} noValidate className="grid max-w-3xl gap-6">
        {/* Enter in a field saves, as the first submit button of a form is the one Enter presses. */}
        <button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true" />
        <FormAlert>{form.formError}</FormAlert>
        <FormAlert tone="success">{form.notice}</FormAlert>

        <Card>
          <fieldset className="grid gap-4">
            <legend className="text-lg font-semibold">Pricing tiers</legend>
            <FormAlert>{form.error("tierId")}</FormAlert>
            {tiers.length === 0 ? <p className="text-sm text-ink-muted">No pricing tiers yet.</p> : null}
            {tiers.map((tier, row) => (
              <div
                key={tier.id}
                role="group"
                aria-label={`Tier ${row + 1}`}
                className="grid gap-3 rounded-xl border border-stage-700 p-4 sm:grid-cols-[1fr_8rem]"
              >
                <input type="hidden" name="tierId" value={tier.id} />
                <Field label={`Tier ${row + 1} name`} name="tierName" defaultValue={tier.name} error={form.error(`tiers.${row}.name`)} />
                <Field
                  label={`Tier ${row + 1} price (${currency})`}
                  name="tierPrice"
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step={0.01}
                  defaultValue={tier.price}
                  error={form.error(`tiers.${row}.price`)}
                />
                <Field
                  className="sm:col-span-2"
                  label={`Tier ${row + 1} description (optional)`}
                  name="tierDescription"
                  defaultValue={tier.description}
                />
                <div className="sm:col-span-2">
                  <Button type="submit" name="intent" value={`remove-tier:${tier.id}`} variant="ghost" size="sm">
                    Remove tier {row + 1}
                  </Button>
                </div>
              </div>
            ))}
            <div>
              <Button type="submit" name="intent" value="add-tier" variant="secondary" size="sm">
                Add pricing tier
              </Button>
            </div>
          </fieldset>
        </Card>

        <Card>
          <fieldset className="grid gap-4">
            <legend className="text-lg font-semibold">Discount codes</legend>
            <FormAlert>{form.error("discountId")}</FormAlert>
            {discounts.length === 0 ? <p className="text-sm text-ink-muted">No discount codes yet.</p> : null}
            {discounts.map((discount, row) => (
              <div
                key={discount.id}
                role="group"
                aria-label={`Discount ${row + 1}`}
                className="grid gap-3 rounded-xl border border-stage-700 p-4 sm:grid-cols-2"
              >
                <input type="hidden" name="discountId" value={discount.id} />
                <Field
                  label={`Discount ${row + 1} code`}
                  name="discountCode"
                  defaultValue={discount.code}
                  autoCapitalize="characters"
                  error={form.error(`discounts.${row}.code`)}
                />
                <Field
                  label={`Discount ${row + 1} percentage`}
                  name="discountPercentage"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={100}
                  step={1}
                  defaultValue={discount.percentage}
                  error={form.error(`discounts.${row}.percentage`)}
                />
                <Field
                  label={`Discount ${row + 1} valid until (optional)`}
                  name="discountValidUntil"
                  type="date"
                  defaultValue={discount.validUntil}
                  error={form.error(`discounts.${row}.validUntil`)}
                />
                <Field
                  label={`Discount ${row + 1} uses (optional)`}
                  name="discountMaxUses"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  step={1}
                  defaultValue={discount.maxUses}
                  error={form.error(`discounts.${row}.maxUses`)}
                  hint="How many orders may use it; empty for no limit."
                />
                <div className="flex flex-wrap items-center justify-between gap-3 sm:col-span-2">
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      name="discountActive"
                      value={discount.id}
                      defaultChecked={discount.active}
                      className="size-4 accent-accent"
                    />
                    Discount {row + 1} active
                  </label>
                  <Button type="submit" name="intent" value={`remove-discount:${discount.id}`} variant="ghost" size="sm">
                    Remove discount {row + 1}
                  </Button>
                </div>
              </div>
            ))}
            <div>
              <Button type="submit" name="intent" value="add-discount" variant="secondary" size="sm">
                Add discount code
              </Button>
            </div>
          </fieldset>
        </Card>

        <Card>
          <fieldset className="grid gap-4">
            <legend className="text-lg font-semibold">Bundles</legend>
            <CheckboxField
              name="bundlingEnabled"
              label="Offer a discount when fans buy a whole album or several items"
              defaultChecked={bundlingEnabled}
            />
            <Field
              id={`${id}-bundle`}
              label="Bundle discount (%)"
              name="bundlingPercentage"
              type="number"
              inputMode="decimal"
              min={0}
              max={100}
              defaultValue={bundlingPercentage}
              error={form.error("bundling.discountPercentage") ?? form.error("bundlingPercentage")}
            />
          </fieldset>
        </Card>

        <div className="max-w-xs">
          <SubmitButton action={storePath} pendingLabel="Saving...">
            Save store settings
          </SubmitButton>
        </div>
      </Form>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
