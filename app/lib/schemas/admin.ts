import * as v from "valibot";

// Administration's forms and data (spec sections 4 and 5: News item). One schema per form.

export const newsTypes = ["info", "update", "announcement"] as const;

const requiredText = (message: string, max: number, what: string) =>
  v.pipe(v.optional(v.string(), ""), v.trim(), v.nonEmpty(message), v.maxLength(max, `${what} can be at most ${max} characters`));

/** A news item as added or edited: title and content required; a new one is active and 'info' unless chosen otherwise. */
export const NewsItemFormSchema = v.object({
  title: requiredText("Title is required", 200, "Title"),
  content: requiredText("Content is required", 2000, "Content"),
  type: v.optional(v.picklist(newsTypes, "Choose info, update or announcement"), "info"),
  active: v.pipe(
    v.optional(v.string(), ""),
    v.transform((value) => value === "on"),
  ),
});

/** Which item a change is about. */
export const NewsItemIdSchema = v.object({ id: v.pipe(v.string(), v.uuid("This news item no longer exists")) });

export const DeleteNewsSchema = v.object({
  id: v.pipe(v.string(), v.uuid("This news item no longer exists")),
  confirm: v.pipe(
    v.optional(v.string(), ""),
    v.check((value) => value === "on", "Tick the box to confirm you want to delete this news item"),
  ),
});

export const NewsItemsSchema = v.array(
  v.object({
    id: v.string(),
    title: v.string(),
    content: v.string(),
    type: v.picklist(newsTypes),
    active: v.boolean(),
    created_at: v.string(),
  }),
);

export const AuditLogSchema = v.array(
  v.object({
    id: v.string(),
    actor_email: v.nullable(v.string()),
    action: v.string(),
    summary: v.string(),
    reason: v.nullable(v.string()),
    created_at: v.string(),
  }),
);
