import { CheckboxField } from "~/components/form-controls";
import { Field, SelectField, TextareaField } from "~/components/ui/field";
import { genres, minimumPrice } from "~/lib/constants";
import type { formFields } from "~/lib/forms/forms";
import { formatPrice } from "~/lib/format";

type TrackDetails = {
  title: string;
  genre: string;
  subgenre: string;
  label: string;
  price: string;
  releaseDate: string;
  description: string;
};

/** A price in the artist's currency, at least the minimum (spec section 5). */
export function PriceField({ value, error, currency }: { value: string; error?: string; currency: string }) {
  return (
    <Field
      label={`Price (${currency})`}
      name="price"
      type="number"
      inputMode="decimal"
      min={minimumPrice}
      step={0.01}
      required
      hint={`At least ${formatPrice(minimumPrice, currency)}.`}
      defaultValue={value}
      error={error}
    />
  );
}

/** An album's own price, or empty for the sum of its tracks' prices (the album page's Buy). */
export function AlbumPriceField({ value, error, currency }: { value: string; error?: string; currency: string }) {
  return (
    <Field
      label={`Album price (${currency}, optional)`}
      name="albumPrice"
      type="number"
      inputMode="decimal"
      min={minimumPrice}
      step={0.01}
      hint="What the whole album costs. Leave it empty to charge the sum of its tracks' prices."
      defaultValue={value}
      error={error}
    />
  );
}

/**
 * The details every track has (spec section 5): title, genre from the genre list, optional subgenre and
 * label, price (at least 0.99, in cents), pay-more, release date and description. Each message sits
 * under its field; `values` are what to show (what was typed after a refused save, else what is stored).
 */
export function TrackDetailsFields({
  form,
  values,
  allowPayMore,
  showTitle = true,
  currency,
}: {
  form: ReturnType<typeof formFields>;
  values: TrackDetails;
  allowPayMore: boolean;
  /** What the artist's prices are in. */
  currency: string;
  /** An album's tracks take their titles from their files: the form asks for the album's title instead. */
  showTitle?: boolean;
}) {
  const descriptionError = form.error("description");
  return (
    <>
      {showTitle ? <Field label="Title" name="title" required defaultValue={values.title} error={form.error("title")} /> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField
          label="Genre"
          name="genre"
          required
          options={genres}
          placeholder="Choose a genre"
          defaultValue={values.genre}
          error={form.error("genre")}
        />
        <Field label="Subgenre (optional)" name="subgenre" defaultValue={values.subgenre} error={form.error("subgenre")} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <PriceField value={values.price} error={form.error("price")} currency={currency} />
        <Field
          label="Release date"
          name="releaseDate"
          type="date"
          required
          defaultValue={values.releaseDate}
          error={form.error("releaseDate")}
        />
      </div>
      <CheckboxField name="allowPayMore" label="Let fans pay more if they want to" defaultChecked={allowPayMore} />
      <Field label="Label (optional)" name="label" defaultValue={values.label} error={form.error("label")} />
      <TextareaField label="Description" name="description" rows={4} required defaultValue={values.description} error={descriptionError} />
    </>
  );
}
