import * as v from "valibot";

export type FieldErrors = Record<string, string>;

/**
 * Reads a submitted form into a plain object (repeated names, like genre checkboxes, become arrays) and
 * checks it with the form's schema. Errors come back one per field, first message wins.
 */
export function parseForm<TSchema extends v.GenericSchema>(
  schema: TSchema,
  formData: FormData,
  { arrays = [] }: { arrays?: string[] } = {},
): { success: true; value: v.InferOutput<TSchema> } | { success: false; errors: FieldErrors } {
  const input: Record<string, unknown> = {};
  for (const key of new Set(formData.keys())) {
    const values = formData.getAll(key).filter((value): value is string => typeof value === "string");
    input[key] = arrays.includes(key) ? values : values[0];
  }
  for (const key of arrays) input[key] ??= [];
  const result = v.safeParse(schema, input);
  if (result.success) return { success: true, value: result.output };
  const errors: FieldErrors = {};
  for (const issue of result.issues) {
    const field = v.getDotPath(issue)?.split(".")[0] ?? "form";
    errors[field] ??= issue.message;
  }
  return { success: false, errors };
}

/** What the user typed, to show again after a failed submission; passwords are never sent back. */
export function typedValues(formData: FormData, fields: string[]): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  for (const field of fields) {
    const all = formData.getAll(field).filter((value): value is string => typeof value === "string");
    values[field] = all.length > 1 ? all : (all[0] ?? "");
  }
  return values;
}
