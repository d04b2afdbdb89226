import { FunctionsHttpError } from "@supabase/supabase-js";
import { data } from "react-router";
import * as v from "valibot";
import type { SupabaseClient } from "./supabase.server";
import { databaseErrorMessage, type BackendError } from "./errors";
import { replyWith, type FormReply, type FormValues } from "../forms/forms";
import { sqlState } from "./sqlstate";

/** What supabase-js answers for a read: rows (or a function's JSON), or the error. */
type BackendResult<T> = { data: T | null; error: BackendError | null };

type ReadOptions = {
  /** What was being read, for the log ("artist page"). */
  what: string;
  /** The message for a failure: the database's (the default), or Storage's for a Storage read. */
  describe?: (error: BackendError) => string;
};
/** The JSON's shape, checked once here, so a schema change fails loudly instead of a page half-rendering. */
type ParseOptions<TSchema extends v.GenericSchema> = ReadOptions & { schema: TSchema };

/** One read's outcome: its data, nothing there, or the message people see (spec section 8). */
export type Read<T> = { status: "found"; data: T } | { status: "empty" } | { status: "failed"; message: string };

/** The page function answered in a shape the app does not know: as the spec's own words for a schema change. */
const unexpectedShape = { code: "PGRST204" };

/**
 * The one place a backend read is judged: a failure is logged raw, once, and turned into the spec's
 * message; a JSON answer is checked against its schema. Pages with an inline error box (home, the
 * track's comments) use this; other loaders use `readOrThrow`.
 */
export function read<TData>(result: BackendResult<TData>, options: ReadOptions): Read<NonNullable<TData>>;
export function read<TSchema extends v.GenericSchema>(
  result: BackendResult<unknown>,
  options: ParseOptions<TSchema>,
): Read<v.InferOutput<TSchema>>;
export function read(
  result: BackendResult<unknown>,
  { what, schema, describe = databaseErrorMessage }: ReadOptions & { schema?: v.GenericSchema },
): Read<unknown> {
  if (result.error) {
    console.error(`Reading the ${what} failed`, result.error);
    return { status: "failed", message: describe(result.error) };
  }
  if (result.data === null || result.data === undefined) return { status: "empty" };
  if (!schema) return { status: "found", data: result.data };
  const parsed = v.safeParse(schema, result.data);
  if (!parsed.success) {
    console.error(`The ${what} came back in an unexpected shape`, v.flatten(parsed.issues));
    return { status: "failed", message: databaseErrorMessage(unexpectedShape) };
  }
  return { status: "found", data: parsed.output };
}

type NotFoundOption = { notFound?: string };

/**
 * A loader's read: its data, or a thrown answer the route's error boundary shows: the spec's message
 * with status 500 for a failure, and 404 with `notFound` (e.g. 'Artist not found') when there is nothing.
 */
export function readOrThrow<TData>(result: BackendResult<TData>, options: ReadOptions & NotFoundOption): NonNullable<TData>;
export function readOrThrow<TSchema extends v.GenericSchema>(
  result: BackendResult<unknown>,
  options: ParseOptions<TSchema> & NotFoundOption,
): v.InferOutput<TSchema>;
export function readOrThrow(result: BackendResult<unknown>, options: ReadOptions & NotFoundOption & { schema?: v.GenericSchema }): unknown {
  const outcome = options.schema ? read(result, { ...options, schema: options.schema }) : read(result, options);
  if (outcome.status === "found") return outcome.data;
  if (outcome.status === "empty") throw notFound(options.notFound ?? "Not found");
  throw data(outcome.message, { status: 500 });
}

type WriteOptions = {
  /** What was being written, for the log ("saving the fan's payment settings"). */
  what: string;
  /** What was typed, sent back with the message. */
  values?: FormValues;
  /**
   * The form field each column's rules speak for (`{ release_date: "releaseDate" }`): when the database
   * refuses a constraint on that column, its message stands beside that field rather than over the form.
   */
  fields?: Record<string, string>;
  /** The one field the whole write is about (a picture): every refusal stands beside it. */
  field?: string;
};

/**
 * The one place a write's refusal is judged, beside `read`: the raw error is logged once and never shown;
 * the answer is the spec's message, beside the field whose rule the database refused (else for the whole
 * form), with a status that says whose it was: 4xx for a rule the user broke (409 a duplicate or a record
 * still in use, 403 what row-level security forbids, 400 any other rule), 500 only for our own failure.
 * Its `.data` is the form's reply and `.init.status` the status, for a route that answers another way.
 */
export function refusedWrite(error: BackendError, { what, values = {}, fields = {}, field: about }: WriteOptions) {
  const status = refusalStatus(error.code);
  if (status >= 500) console.error(`${what} failed`, error);
  else console.warn(`${what} was refused`, error);
  const message = databaseErrorMessage(error);
  const field = about ?? refusedField(error, fields);
  const reply: FormReply = field
    ? { fieldErrors: { [field]: message }, formError: null, values }
    : { fieldErrors: {}, formError: message, values };
  return replyWith(reply, status);
}

function refusalStatus(code: string | null | undefined): number {
  // unique violation; a row still referenced (restrict) or referencing nothing
  if (code === sqlState.uniqueViolation || code === sqlState.foreignKeyViolation || code === sqlState.restrictViolation) return 409;
  if (code === sqlState.insufficientPrivilege) return 403;
  // a bound of the catalog reached (catalogLimits)
  if (code === sqlState.limitReached) return 409;
  // any other integrity rule, a value out of range or shape, a rule a function raised
  if (code?.startsWith("23") || code?.startsWith("22") || code === sqlState.raisedException) return 400;
  return 500;
}

/** The form field of the column a refused constraint (`tracks_release_date_range`) or a missing value names. */
function refusedField(error: BackendError, fields: Record<string, string>): string | null {
  const named = /constraint "([^"]+)"/.exec(error.message ?? "")?.[1] ?? /column "([^"]+)"/.exec(error.message ?? "")?.[1];
  if (!named) return null;
  const columns = Object.keys(fields).filter((column) => named === column || named.includes(`_${column}_`) || named.endsWith(`_${column}`));
  const column = columns.sort((a, b) => b.length - a.length)[0];
  return column ? (fields[column] ?? null) : null;
}

/** The 404 answer every route throws for what does not exist; the route's boundary shows its NotFound. */
export function notFound(message: string) {
  return data(message, { status: 404 });
}

/** An Edge Function's failure answer: `{ code }` (each function lists its codes). */
const FunctionFailureSchema = v.object({ code: v.string() });

/** An Edge Function's outcome: its JSON, checked against the schema, or the code of its failure (null if it gave none). */
type Invocation<T> = { ok: true; data: T } | { ok: false; code: string | null };

/**
 * The one way the Worker calls an Edge Function: as the reader (their session, or the anon key for a
 * visitor), so the function's checks and row-level security see who asks. A failure is logged once with
 * its code; the caller turns the code into the spec's message.
 */
export async function invokeFunction<TSchema extends v.GenericSchema>(
  supabase: SupabaseClient,
  name: string,
  body: Record<string, unknown>,
  schema: TSchema,
): Promise<Invocation<v.InferOutput<TSchema>>> {
  const { data: answer, error } = await supabase.functions.invoke(name, { body });
  if (error) {
    const context: unknown = error instanceof FunctionsHttpError ? error.context : null;
    const failure = context instanceof Response ? v.safeParse(FunctionFailureSchema, await context.json().catch(() => null)) : null;
    const code = failure?.success ? failure.output.code : null;
    console.warn(`${name} failed`, code ?? error.message);
    return { ok: false, code };
  }
  const parsed = v.safeParse(schema, answer);
  if (parsed.success) return { ok: true, data: parsed.output };
  console.error(`${name} answered in an unexpected shape`, v.flatten(parsed.issues));
  return { ok: false, code: null };
}
