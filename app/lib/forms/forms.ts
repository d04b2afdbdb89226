import { data } from "react-router";
import * as v from "valibot";
import { uncached } from "../http/http-cache";

export type FieldErrors = Partial<Record<string, string>>;
export type FormValues = Record<string, string | string[]>;

/**
 * What every action answers when a submission does not go through, and what every form reads back:
 * messages next to their fields, one message for the whole form, what was typed (never a password),
 * and a notice when the action has good news that is not a redirect.
 */
export type FormReply = { fieldErrors: FieldErrors; formError: string | null; values: FormValues; notice?: string | null };

/** Fields whose value is never sent back to the page. */
const secretFields = new Set(["password", "confirmPassword", "currentPassword"]);

/**
 * Reads a submitted form into a plain object (names listed in `arrays`, like genre checkboxes, become
 * arrays) and checks it with the form's schema. On failure, the reply to send back: errors one per
 * field (the first message wins) and what was typed.
 */
export function parseForm<TSchema extends v.GenericSchema>(
  schema: TSchema,
  formData: FormData,
  { arrays = [] }: { arrays?: string[] } = {},
): { success: true; value: v.InferOutput<TSchema>; values: FormValues } | { success: false; reply: FormReply } {
  const input: Record<string, string | string[] | undefined> = {};
  const values: FormValues = {};
  for (const key of new Set(formData.keys())) {
    const typed = formData.getAll(key).filter((value): value is string => typeof value === "string");
    input[key] = arrays.includes(key) ? typed : typed[0];
    if (!secretFields.has(key)) values[key] = arrays.includes(key) ? typed : (typed[0] ?? "");
  }
  for (const key of arrays) {
    input[key] ??= [];
    values[key] ??= [];
  }
  const result = v.safeParse(schema, input);
  if (result.success) return { success: true, value: result.output, values };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.issues) {
    // By field ('price'), and for a row of a list also by its place ('tiers.2.price').
    const path = v.getDotPath(issue) ?? "form";
    fieldErrors[path.split(".")[0] ?? path] ??= issue.message;
    fieldErrors[path] ??= issue.message;
  }
  return { success: false, reply: { fieldErrors, formError: null, values } };
}

/** A reply with one message for the whole form (the backend refused, a rate limit, a stale link). */
export function formError(formError: string, values: FormValues = {}): FormReply {
  return { fieldErrors: {}, formError, values };
}

/** Sends a reply back to the form with its status; a reply is personal, so never cached. */
export function replyWith(reply: FormReply, status: number) {
  return data(reply, { status, headers: uncached });
}

/** What a form shows from its action's reply: each field's message and typed value, the form's message. */
export function formFields(reply: FormReply | undefined | null) {
  const values = reply?.values ?? {};
  return {
    error: (name: string) => reply?.fieldErrors[name],
    formError: reply?.formError ?? null,
    notice: reply?.notice ?? null,
    text: (name: string) => {
      const value = values[name];
      return typeof value === "string" ? value : "";
    },
    list: (name: string) => ([] as string[]).concat(values[name] ?? []),
    /**
     * A text field's name, value and message, to spread on a `Field`: `{...form.field("email")}`. The value
     * is what was typed once the form has had a reply, else `stored` (what the field edits, if anything).
     */
    field: (name: string, stored = "") => {
      const value = values[name];
      return { name, defaultValue: reply ? (typeof value === "string" ? value : "") : stored, error: reply?.fieldErrors[name] };
    },
    checked: (name: string) => values[name] === "on",
  };
}

/** A list a form edits as parallel fields, one value per row (`tierName` …), each row with an id field. */
export type RowList = { id: string; columns: string[]; limit: number; label: string };

/**
 * The form's values with a row added to `list` (empty, with a new id) or removed (by its id): what the
 * Add and Remove buttons of a list post, so lists are edited without JavaScript and nothing typed is lost.
 * `checkboxes` name fields that hold the ids of the rows ticked.
 */
export function editRows(
  values: FormValues,
  list: RowList,
  change: { add: true } | { remove: string },
  checkboxes: string[] = [],
): { values: FormValues; problem: string | null } {
  const column = (name: string) => ([] as string[]).concat(values[name] ?? []);
  const next: FormValues = { ...values };
  if ("add" in change) {
    if (column(list.id).length >= list.limit) return { values, problem: `At most ${list.limit} ${list.label}` };
    for (const name of list.columns) next[name] = [...column(name), name === list.id ? crypto.randomUUID().slice(0, 8) : ""];
    return { values: next, problem: null };
  }
  const row = column(list.id).indexOf(change.remove);
  if (row < 0) return { values, problem: null };
  for (const name of list.columns) next[name] = column(name).filter((_, index) => index !== row);
  for (const name of checkboxes) next[name] = column(name).filter((ticked) => ticked !== change.remove);
  return { values: next, problem: null };
}
