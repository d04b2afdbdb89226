import { useEffect, useId, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { FieldError, Label, Textarea } from "~/components/ui/field";
import { commentMaxLength } from "~/lib/constants";
import { formatCount } from "~/lib/format";
import { formFields, type FormReply } from "~/lib/forms/forms";
import type { TrackComment } from "~/lib/schemas/catalog-data";

/**
 * Add a comment, or reply to one: a plain POST to the track page's action (it works without JavaScript);
 * with JavaScript it stays on the page and empties once the comment went through.
 */
export function CommentForm({
  trackPath,
  result,
  replyingTo,
}: {
  trackPath: string;
  result: FormReply | undefined;
  replyingTo: TrackComment | null;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const posting = navigation.state === "submitting" && navigation.formData?.get("intent") === "comment";
  const wasPosting = useRef(false);
  const fields = formFields(result);
  const error = fields.error("content");
  const fieldId = useId();

  // With JavaScript the form stays on the page: empty it once the comment went through.
  useEffect(() => {
    if (posting) wasPosting.current = true;
    else if (wasPosting.current && navigation.state === "idle") {
      wasPosting.current = false;
      if (!error) formRef.current?.reset();
    }
  }, [posting, navigation.state, error]);

  return (
    <Form
      ref={formRef}
      method="post"
      action={trackPath}
      preventScrollReset
      noValidate
      className="rounded-2xl border border-stage-700 bg-stage-850 p-4"
    >
      <input type="hidden" name="intent" value="comment" />
      {replyingTo ? <input type="hidden" name="replyTo" value={replyingTo.id} /> : null}
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Label htmlFor={fieldId}>{replyingTo ? `Reply to ${replyingTo.author_name ?? "this comment"}` : "Add a comment"}</Label>
        {replyingTo ? (
          <Link to={`${trackPath}#comments`} preventScrollReset className="text-sm text-accent-strong hover:underline">
            Cancel reply
          </Link>
        ) : null}
      </div>
      <Textarea
        id={fieldId}
        name="content"
        required
        maxLength={commentMaxLength}
        rows={3}
        placeholder="What do you hear?"
        defaultValue={fields.text("content")}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : `${fieldId}-hint`}
        className="min-h-24 resize-y"
      />
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <div>
          <FieldError id={`${fieldId}-error`}>{error}</FieldError>
          {error ? null : (
            <p id={`${fieldId}-hint`} className="text-sm text-ink-faint">
              Up to {formatCount(commentMaxLength)} characters.
            </p>
          )}
        </div>
        <Button type="submit" disabled={posting} aria-disabled={posting || undefined}>
          {posting ? "Posting..." : replyingTo ? "Post reply" : "Post comment"}
        </Button>
      </div>
    </Form>
  );
}
