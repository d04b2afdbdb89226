import { Form, href, redirect } from "react-router";
import { ProfilePictureForm } from "~/components/account/profile-picture-form";
import { BioField } from "~/components/fan/bio-field";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { CheckboxField, FormAlert, SubmitButton } from "~/components/form-controls";
import { GenrePicker } from "~/components/account-fields";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { fanPath } from "~/lib/catalog/catalog";
import { readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { genres } from "~/lib/constants";
import { forgetCached } from "~/lib/cache/edge-cache.server";
import { formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireFan } from "~/lib/session/guards.server";
import { onePicture } from "~/lib/media/media-files";
import { pageMeta } from "~/lib/sharing/meta";
import { FanPageShownSchema, FanProfileSchema } from "~/lib/schemas/fan";
import { FanProfileRowSchema } from "~/lib/schemas/fan-data";
import { supabaseContext } from "~/lib/session/session.server";
import { isPictureIntent, profilePictureAction } from "~/lib/account/profile-picture.server";
import type { Route } from "./+types/profile";

export const meta = () => pageMeta("Edit Profile", "Your picture, username, bio and favourite genres.");

const profilePath = href("/dashboard/fan/profile");

export async function loader({ request, context }: Route.LoaderArgs) {
  const fan = requireFan(request, context);
  const profile = readOrThrow(
    await context
      .get(supabaseContext)
      .from("fan_profiles")
      .select("username, bio, profile_image_url, favorite_genres, show_collection, show_wishlist")
      .eq("id", fan.id)
      .maybeSingle(),
    { what: "fan profile", schema: FanProfileRowSchema, notFound: "Fan not found" },
  );
  return { fanId: fan.id, profile };
}

/** Save goes back to the dashboard (spec); the picture has its own form (see profile-picture.server). */
export async function action({ request, context }: Route.ActionArgs) {
  const fan = requireFan(request, context);
  const formData = await readForm(request, { files: { picture: onePicture } });
  const intent = String(formData.get("intent") ?? "save");
  if (isPictureIntent(intent)) {
    return profilePictureAction(request, context, { intent, formData, user: { id: fan.id, role: "fan" } });
  }
  if (intent === "page") {
    const shown = parseForm(FanPageShownSchema, formData);
    if (!shown.success) return replyWith({ ...shown.reply, values: { ...shown.reply.values, intent } }, 400);
    const { error } = await context
      .get(supabaseContext)
      .from("fan_profiles")
      .update({ show_collection: shown.value.showCollection, show_wishlist: shown.value.showWishlist })
      .eq("id", fan.id);
    if (error) return refusedWrite(error, { what: "saving what the fan's page shows", values: { intent } });
    await forgetCached(request, context, [`user:${fan.id}`]);
    return replyWith({ fieldErrors: {}, formError: null, values: { intent }, notice: "Saved. Your page shows what you chose." }, 200);
  }
  const submission = parseForm(FanProfileSchema, formData, { arrays: ["favoriteGenres"] });
  if (!submission.success) return replyWith(submission.reply, 400);
  const { username, bio, favoriteGenres } = submission.value;
  const { error } = await context
    .get(supabaseContext)
    .from("fan_profiles")
    .update({ username, bio, favorite_genres: favoriteGenres })
    .eq("id", fan.id);
  if (error) {
    return refusedWrite(error, {
      what: "saving the fan profile",
      values: submission.values,
      fields: { username: "username", bio: "bio" },
    });
  }
  await forgetCached(request, context, [`user:${fan.id}`]);
  throw redirect(href("/dashboard/fan"), 303);
}

export default function FanEditProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { fanId, profile } = loaderData;
  const form = formFields(actionData);
  // A reply about the picture, or about what the page shows, leaves the details as stored; a refused save
  // shows what was typed.
  const pageReply = actionData?.values.intent === "page" ? actionData : undefined;
  const edited = actionData !== undefined && actionData.fieldErrors.picture === undefined && !pageReply;
  return (
    <>
      <DashboardHeader
        title="Edit Profile"
        kicker="Your music"
        dashboard={href("/dashboard/fan")}
        actions={
          <LinkButton to={fanPath(fanId)} variant="secondary">
            View your public page
          </LinkButton>
        }
      >
        What other fans and artists see on your page.
      </DashboardHeader>
      <div className="grid max-w-2xl gap-6">
        <ProfilePictureForm userId={fanId} name={profile.username} url={profile.profile_image_url} reply={actionData} path={profilePath} />
        <Card>
          <Form method="post" action={profilePath} noValidate className="grid gap-5">
            <FormAlert>{form.formError}</FormAlert>
            <Field
              label="Username"
              name="username"
              required
              maxLength={50}
              autoComplete="username"
              defaultValue={edited ? form.text("username") : profile.username}
              error={form.error("username")}
            />
            <BioField defaultValue={edited ? form.text("bio") : (profile.bio ?? "")} error={form.error("bio")} maxLength={2000} />
            <GenrePicker
              name="favoriteGenres"
              legend="Favorite genres"
              options={genres}
              selected={edited ? form.list("favoriteGenres") : profile.favorite_genres}
            />
            <div className="max-w-xs">
              <SubmitButton action={profilePath} pendingLabel="Saving...">
                Save profile
              </SubmitButton>
            </div>
          </Form>
        </Card>
        <Card>
          <h2 className="text-lg font-semibold">On your page</h2>
          <p className="mt-1 text-sm text-ink-muted">
            What others see besides your profile. You always see everything on your own page; a single purchase is hidden from Purchased.
          </p>
          <Form method="post" action={profilePath} className="mt-4 grid gap-4">
            <input type="hidden" name="intent" value="page" />
            <FormAlert>{pageReply?.formError}</FormAlert>
            <FormAlert tone="success">{pageReply?.notice}</FormAlert>
            <CheckboxField
              name="showCollection"
              label="Show my collection (and me among the fans who support what I bought)"
              defaultChecked={profile.show_collection}
            />
            <CheckboxField name="showWishlist" label="Show my wishlist" defaultChecked={profile.show_wishlist} />
            <div className="max-w-xs">
              <SubmitButton action={profilePath} intent="page" pendingLabel="Saving...">
                Save what my page shows
              </SubmitButton>
            </div>
          </Form>
        </Card>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
