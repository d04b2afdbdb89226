import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { read, readOrThrow } from "~/lib/backend.server";

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
