import { describe, expect, it } from "vitest";
import { audioUrlErrorMessage } from "~/lib/backend/errors";
import { audioUnavailableAdvice } from "~/components/track/waveform-player";
import { parseForm } from "~/lib/forms/forms";
import { CommentSchema, DeleteCommentSchema } from "~/lib/schemas/comments";

const form = (fields: Record<string, string>) => {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.append(name, value);
  return formData;
};

describe("audio URL messages", () => {
  it("gives the spec's message for each answer of the track-audio-url function", () => {
    expect(audioUrlErrorMessage("no_audio_file")).toBe("This track does not have an audio file");
    expect(audioUrlErrorMessage("audio_file_missing")).toBe(
      "The audio file for this track is no longer available. Please contact the artist for assistance.",
    );
    expect(audioUrlErrorMessage("no_signed_url")).toBe("Audio file is currently unavailable");
  });

  it("says 'Unable to access audio file' for any other failure", () => {
    expect(audioUrlErrorMessage("storage_error")).toBe("Unable to access audio file");
    expect(audioUrlErrorMessage(null)).toBe("Unable to access audio file");
  });

  it("adds advice only when the file is no longer available", () => {
    expect(audioUnavailableAdvice(audioUrlErrorMessage("audio_file_missing"))).toMatch(/check back later or contact the artist/);
    expect(audioUnavailableAdvice(audioUrlErrorMessage("no_audio_file"))).toBeNull();
  });
});

describe("comment form", () => {
  it("accepts a comment, trimmed", () => {
    expect(parseForm(CommentSchema, form({ content: "  Lovely  " }))).toMatchObject({ success: true, value: { content: "Lovely" } });
  });

  it("requires some text", () => {
    for (const content of ["", "   "]) {
      expect(parseForm(CommentSchema, form({ content }))).toEqual({
        success: false,
        reply: { fieldErrors: { content: "Please write a comment first" }, formError: null, values: { content } },
      });
    }
    expect(parseForm(CommentSchema, form({}))).toMatchObject({
      success: false,
      reply: { fieldErrors: { content: "Please write a comment first" } },
    });
  });

  it("allows at most 2,000 characters", () => {
    expect(parseForm(CommentSchema, form({ content: "x".repeat(2000) })).success).toBe(true);
    expect(parseForm(CommentSchema, form({ content: "x".repeat(2001) }))).toMatchObject({
      success: false,
      reply: { fieldErrors: { content: "Comments can be at most 2,000 characters" } },
    });
  });

  it("deletes only by a comment id", () => {
    expect(parseForm(DeleteCommentSchema, form({ commentId: "0b6a3c1e-4d7f-4c1a-9f0e-2b3c4d5e6f70" })).success).toBe(true);
    expect(parseForm(DeleteCommentSchema, form({ commentId: "1; drop table" })).success).toBe(false);
  });
});
