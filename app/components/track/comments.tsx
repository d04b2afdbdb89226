import { Suspense, useId } from "react";
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { FormAlert } from "~/components/form-controls";
import { Button } from "~/components/ui/button";
import { commentsPageSize } from "~/lib/constants";
import { formatTimeAgo } from "~/lib/format";
import { formFields, type FormReply } from "~/lib/forms/forms";
import type { TrackComment } from "~/lib/schemas/catalog-data";
import { onDemand } from "~/lib/ui/on-demand";

const loadCommentForm = () => import("./comment-form");

/**
 * The comment form's code: the server renders it at once (it works without JavaScript); the browser
 * fetches it for signed-in listeners alone, since visitors see "Log in" instead, and the track page's own
 * JavaScript stays within its budget.
 */
const CommentForm = import.meta.env.SSR
  ? (await loadCommentForm()).CommentForm
  : onDemand(
      async () => (await loadCommentForm()).CommentForm,
      () => window.location.href,
    );

/**
 * A track's comments, newest first, a page at a time; signed-in listeners post and delete their own.
 * Both forms are plain POSTs to the track page's action, so they work without JavaScript.
 */
export function Comments({
  trackPath,
  comments,
  total,
  now,
  user,
  result,
}: {
  trackPath: string;
  comments: TrackComment[];
  total: number;
  now: number;
  user: { id: string } | null;
  result: FormReply | undefined;
}) {
  const headingId = useId();
  // "Reply" is a link (it works without JavaScript): the form then answers that comment.
  const [searchParams] = useSearchParams();
  const replyTo = searchParams.get("replyTo");
  return (
    <section id="comments" aria-labelledby={headingId} className="mt-12">
      <h2 id={headingId} className="text-2xl font-bold">
        Comments <span className="text-ink-faint">({total})</span>
      </h2>
      <div className="mt-5">
        {user ? (
          <Suspense fallback={null}>
            <CommentForm trackPath={trackPath} result={result} replyingTo={comments.find((comment) => comment.id === replyTo) ?? null} />
          </Suspense>
        ) : (
          <p className="rounded-2xl border border-stage-700 bg-stage-850 px-5 py-4 text-ink-muted">
            <Link
              to={`/login?${new URLSearchParams({ redirectTo: `${trackPath}#comments` })}`}
              className="font-semibold text-accent-strong underline-offset-4 hover:underline"
            >
              Log in
            </Link>{" "}
            to join the conversation.
          </p>
        )}
      </div>
      <FormAlert>{formFields(result).formError}</FormAlert>
      {comments.length === 0 ? (
        <p className="mt-6 text-ink-muted">No comments yet. Be the first to say what you think.</p>
      ) : (
        <ol className="mt-6 grid gap-3">
          {comments.map((comment, index) => (
            // The first comment of each further page is where "Show more" lands.
            <li key={comment.id} id={`comment-${index + 1}`} className="scroll-mt-24">
              <CommentItem
                comment={comment}
                now={now}
                trackPath={trackPath}
                isOwn={comment.user_id === user?.id}
                canReply={user !== null && comment.user_id !== user.id}
              />
            </li>
          ))}
        </ol>
      )}
      {comments.length < total ? (
        <div className="mt-5 flex justify-center">
          <Link
            to={`${trackPath}?comments=${comments.length + commentsPageSize}#comment-${comments.length + 1}`}
            preventScrollReset
            className="inline-flex h-10 items-center rounded-full border border-stage-600 bg-stage-800 px-5 text-sm font-semibold text-ink hover:border-ink-faint hover:bg-stage-700"
          >
            Show more
          </Link>
        </div>
      ) : null}
    </section>
  );
}

function CommentItem({
  comment,
  now,
  trackPath,
  isOwn,
  canReply,
}: {
  comment: TrackComment;
  now: number;
  trackPath: string;
  isOwn: boolean;
  canReply: boolean;
}) {
  const navigation = useNavigation();
  const deleting = navigation.state === "submitting" && navigation.formData?.get("commentId") === comment.id;
  const name = comment.author_name ?? "Unknown User";
  const profilePath = comment.author_kind ? `/${comment.author_kind}/${comment.user_id}` : null;
  return (
    <article className="flex gap-3 rounded-2xl border border-stage-700 bg-stage-850 p-4">
      <img
        src={comment.author_image_url ?? "/fallback-avatar.svg"}
        alt=""
        width={40}
        height={40}
        className="size-10 shrink-0 rounded-full bg-stage-800 object-cover"
      />
      <div className="min-w-0 flex-1">
        <header className="flex flex-wrap items-baseline gap-x-2">
          {profilePath ? (
            <Link to={profilePath} className="font-semibold text-ink hover:text-accent-strong">
              {name}
            </Link>
          ) : (
            <span className="font-semibold text-ink">{name}</span>
          )}
          {comment.author_kind === "artist" ? (
            <span className="text-xs font-semibold tracking-wide text-amber uppercase">Artist</span>
          ) : null}
          <time dateTime={comment.created_at} className="text-sm text-ink-faint">
            {formatTimeAgo(comment.created_at, now)}
          </time>
        </header>
        {comment.reply_to_user_id ? <InReplyTo comment={comment} /> : null}
        <p className="mt-1 break-words whitespace-pre-line text-ink-muted">{comment.content}</p>
        {canReply ? (
          <Link
            to={`${trackPath}?${new URLSearchParams({ replyTo: comment.id })}#comments`}
            preventScrollReset
            className="mt-2 inline-block text-sm font-semibold text-accent-strong hover:underline"
            aria-label={`Reply to ${name}`}
          >
            Reply
          </Link>
        ) : null}
      </div>
      {isOwn ? (
        <Form method="post" action={trackPath} preventScrollReset className="shrink-0">
          <input type="hidden" name="intent" value="delete-comment" />
          <input type="hidden" name="commentId" value={comment.id} />
          <Button
            type="submit"
            variant="ghost"
            size="sm"
            disabled={deleting}
            aria-label={`Delete your comment from ${formatTimeAgo(comment.created_at, now)}`}
          >
            {deleting ? "Deleting..." : "Delete"}
          </Button>
        </Form>
      ) : null}
    </article>
  );
}

/** Above a reply's text: whom it answers, linked to their page where they have one. */
function InReplyTo({ comment }: { comment: TrackComment }) {
  const name = comment.reply_to_name ?? "Unknown User";
  const path = comment.reply_to_kind ? `/${comment.reply_to_kind}/${comment.reply_to_user_id}` : null;
  return (
    <p className="mt-0.5 text-sm text-ink-faint">
      in reply to{" "}
      {path ? (
        <Link to={path} className="font-semibold text-ink-muted hover:text-accent-strong">
          {name}
        </Link>
      ) : (
        <span className="font-semibold text-ink-muted">{name}</span>
      )}
    </p>
  );
}
