import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { read, readOrThrow, refusedWrite } from "~/lib/backend/backend.server";

const Schema = v.object({ name: v.string() });

/**
 * The log gets the raw error: the next console.error is expected (the test setup fails a test on any
 * other), and how many calls came since is counted.
 */
function expectOneLog() {
  const log = vi.mocked(console.error);
  const before = log.mock.calls.length;
  log.mockImplementationOnce(() => {});
  return { calls: () => log.mock.calls.slice(before) };
}

function thrown(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    // What `data(message, { status })` throws; React Router turns it into the error response.
    if (error && typeof error === "object" && "init" in error && "data" in error) {
      const { data, init } = error as { data: unknown; init: ResponseInit | null };
      return { status: init?.status, message: data };
    }
    throw error;
  }
  throw new Error("nothing was thrown");
}

describe("read", () => {
  it("hands back the data, checked against the schema", () => {
    expect(read({ data: { name: "Ember Road", extra: 1 }, error: null }, { what: "artist", schema: Schema })).toEqual({
      status: "found",
      data: { name: "Ember Road" },
    });
    expect(read({ data: [1, 2], error: null }, { what: "list" })).toEqual({ status: "found", data: [1, 2] });
  });

  it("says when there is nothing", () => {
    expect(read({ data: null, error: null }, { what: "artist", schema: Schema })).toEqual({ status: "empty" });
  });

  it("logs a failure raw, once, and gives the spec's message", () => {
    const log = expectOneLog();
    const error = { code: "42P01", message: 'relation "public.artist_profiles" does not exist' };
    expect(read({ data: null, error }, { what: "artist page" })).toEqual({ status: "failed", message: "Database table not found" });
    expect(log.calls()).toEqual([["Reading the artist page failed", error]]);
  });

  it("treats an answer of the wrong shape as a schema change, and logs what did not match", () => {
    const log = expectOneLog();
    expect(read({ data: { name: 7 }, error: null }, { what: "artist page", schema: Schema })).toEqual({
      status: "failed",
      message: "Database schema has changed. Please refresh the page",
    });
    expect(log.calls()).toHaveLength(1);
    expect(log.calls()[0]?.[0]).toBe("The artist page came back in an unexpected shape");
  });
});

describe("readOrThrow", () => {
  it("returns the data", () => {
    expect(readOrThrow({ data: { name: "Lumen Drift" }, error: null }, { what: "artist", schema: Schema })).toEqual({
      name: "Lumen Drift",
    });
  });

  it("throws 404 with the page's words when there is nothing", () => {
    expect(thrown(() => readOrThrow({ data: null, error: null }, { what: "artist", notFound: "Artist not found" }))).toEqual({
      status: 404,
      message: "Artist not found",
    });
  });

  it("throws 500 with the spec's message when the read failed", () => {
    expectOneLog();
    expect(thrown(() => readOrThrow({ data: null, error: { code: "23505", message: "duplicate" } }, { what: "artist" }))).toEqual({
      status: 500,
      message: "A record with this information already exists",
    });
  });
});

describe("refusedWrite", () => {
  const trackFields = { title: "title", description: "description", release_date: "releaseDate" };
  const refused = (error: { code: string; message: string }, options: Omit<Parameters<typeof refusedWrite>[1], "what"> = {}) => {
    const warn = vi.spyOn(console, "warn").mockImplementationOnce(() => {});
    const reply = refusedWrite(error, { what: "saving a track", ...options });
    warn.mockRestore();
    return { status: reply.init?.status, ...reply.data };
  };

  it("puts a refused rule beside the field of its column, keeping what was typed, with 400", () => {
    const error = { code: "23514", message: 'new row for relation "tracks" violates check constraint "tracks_description_length"' };
    expect(refused(error, { values: { description: "x".repeat(5001) }, fields: trackFields })).toEqual({
      status: 400,
      fieldErrors: { description: "Data validation failed" },
      formError: null,
      values: { description: "x".repeat(5001) },
    });
    const missing = { code: "23502", message: 'null value in column "release_date" of relation "tracks" violates not-null constraint' };
    expect(refused(missing, { fields: trackFields })).toMatchObject({
      status: 400,
      fieldErrors: { releaseDate: "Data validation failed" },
    });
  });

  it("speaks for the whole form when no field owns the rule, or for the one field the write is about", () => {
    const error = { code: "22008", message: 'date/time field value out of range: "2024-02-30"' };
    expect(refused(error, { fields: trackFields })).toMatchObject({ status: 400, fieldErrors: {}, formError: "Data validation failed" });
    const trigger = { code: "42501", message: "a stored file is named only through the marketplace, which checks its bytes first" };
    expect(refused(trigger, { field: "picture" })).toMatchObject({
      status: 403,
      fieldErrors: { picture: "You don't have permission to perform this action" },
    });
  });

  it("answers 409 for a duplicate or a record still in use, and never shows the database's own words", () => {
    const duplicate = refused({ code: "23505", message: 'duplicate key value violates unique constraint "likes_pkey"' });
    expect(duplicate).toMatchObject({ status: 409, formError: "A record with this information already exists" });
    expect(JSON.stringify(duplicate)).not.toContain("likes_pkey");
    expect(refused({ code: "23001", message: "restrict" }).status).toBe(409);
  });

  it("answers 500 for our own failure, logged as an error", () => {
    const log = expectOneLog();
    const reply = refusedWrite({ code: "57014", message: "canceling statement due to statement timeout" }, { what: "saving a track" });
    expect({ status: reply.init?.status, ...reply.data }).toMatchObject({
      status: 500,
      formError: "Database error: please try again later",
    });
    expect(log.calls()).toHaveLength(1);
  });
});
