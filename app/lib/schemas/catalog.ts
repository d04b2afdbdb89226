import * as v from "valibot";

// The catalog's two forms; the messages are the spec's (section 5).

export const NewsletterSchema = v.object({
  email: v.pipe(v.string(), v.trim(), v.nonEmpty("Email is required"), v.email("Please enter a valid email address")),
});

export const FollowSchema = v.object({
  intent: v.picklist(["follow", "unfollow"], "Choose follow or unfollow"),
});
