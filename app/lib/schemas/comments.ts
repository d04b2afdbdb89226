import * as v from "valibot";
import { idSchema } from "./text";
import { commentMaxLength } from "~/lib/constants";

// The comment forms on the track page.

export const CommentSchema = v.object({
  content: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.nonEmpty("Please write a comment first"),
    v.maxLength(commentMaxLength, `Comments can be at most ${commentMaxLength.toLocaleString("en-US")} characters`),
  ),
  // A reply names the comment it answers (its author hears of it).
  replyTo: v.optional(v.pipe(v.string(), idSchema("The comment you replied to no longer exists"))),
});

export const DeleteCommentSchema = v.object({
  commentId: v.pipe(v.optional(v.string(), ""), idSchema("This comment no longer exists")),
});
