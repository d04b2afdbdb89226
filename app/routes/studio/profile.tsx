import { Form, href, redirect } from "react-router";
import { ProfilePictureForm } from "~/components/account/profile-picture-form";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { GenrePicker } from "~/components/account-fields";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, TextareaField } from "~/components/ui/field";
import { artistPath } from "~/lib/catalog/catalog";
import { readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { forgetCached } from "~/lib/cache/edge-cache.server";
import { genres } from "~/lib/constants";
import { editRows, formFields, parseForm, replyWith, type RowList } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireArtist } from "~/lib/session/guards.server";
import { onePicture } from "~/lib/media/media-files";
import { pageMeta } from "~/lib/sharing/meta";
import { ArtistProfileSchema, tourDateLimit } from "~/lib/schemas/studio";
import { ArtistProfileRowSchema } from "~/lib/schemas/studio-data";
import { supabaseContext } from "~/lib/session/session.server";
import { isPictureIntent, profilePictureAction } from "~/lib/account/profile-picture.server";
import type { Route } from "./+types/profile";

export const meta = () => pageMeta("Edit Profile", "Your name, bio, links, tour dates and picture.");

const profilePath = href("/dashboard/artist/profile");
const showRows: RowList = { id: "showId", columns: ["showId", "showDate", "showVenue", "showCity"], limit: tourDateLimit, label: "shows" };
const profileColumns = "artist_name, short_description, bio, website, genres, profile_image_url, social_links, tour_dates";

export async function loader({ request, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  const profile = readOrThrow(
    await context.get(supabaseContext).from("artist_profiles").select(profileColumns).eq("id", artist.id).maybeSingle(),
    { what: "artist profile", schema: ArtistProfileRowSchema, notFound: "Artist not found" },
  );
  // Each show gets an id for this visit, so its Remove button names it.
  const shows = profile.tour_dates.map((show) => ({ ...show, id: crypto.randomUUID().slice(0, 8) }));
  return { artistId: artist.id, profile, shows };
}

/**
 * Save goes to the public page; Add show and Remove post the whole form and get it back with a show more
 * or less, unsaved (so they work without JavaScript and nothing typed is lost). The picture has its own
 * form: a file (without JavaScript), a file uploaded already (with), or its removal.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const artist = requireArtist(request, context);
  const supabase = context.get(supabaseContext);
  const formData = await readForm(request, { files: { picture: onePicture } });
  const intent = String(formData.get("intent") ?? "save");

  if (isPictureIntent(intent)) {
    return profilePictureAction(request, context, { intent, formData, user: { id: artist.id, role: "artist" } });
  }

  const submission = parseForm(ArtistProfileSchema, formData, { arrays: [...showRows.columns, "genres"] });
  const values = submission.success ? submission.values : submission.reply.values;
  if (intent !== "save") {
    const [action = "", id = ""] = intent.split(":");
    const edited = editRows(values, showRows, action === "add-show" ? { add: true } : { remove: id });
    const notice = "Not saved yet: press Save profile to keep your changes.";
    return replyWith({ fieldErrors: {}, formError: edited.problem, values: edited.values, notice: edited.problem ? null : notice }, 200);
  }
  if (!submission.success) return replyWith(submission.reply, 400);
  const profile = submission.value;
  const { error } = await supabase
    .from("artist_profiles")
    .update({
      artist_name: profile.artistName,
      short_description: profile.shortDescription,
      bio: profile.bio,
      website: profile.website,
      genres: profile.genres,
      social_links: { twitter: profile.twitter, instagram: profile.instagram },
      tour_dates: profile.shows.map(({ date, venue, city }) => ({ date, venue, city })),
    })
    .eq("id", artist.id);
  if (error) {
    return refusedWrite(error, {
      what: "saving the artist profile",
      values,
      fields: { artist_name: "artistName", short_description: "shortDescription", bio: "bio", website: "website" },
    });
  }
  await forgetCached(request, context, [`user:${artist.id}`]);
  throw redirect(artistPath(artist.id), 303);
}

export default function EditProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { artistId, profile } = loaderData;
  const form = formFields(actionData);
  // What is being edited: the reply's values after Add, Remove or a refused save; else the stored ones.
  // A reply about the picture leaves the details as stored.
  const edited = actionData !== undefined && actionData.fieldErrors.picture === undefined;
  const text = (name: string, stored: string | null) => (edited ? form.text(name) : (stored ?? ""));
  const shows = edited
    ? form.list("showId").map((showId, row) => ({
        id: showId,
        date: form.list("showDate")[row] ?? "",
        venue: form.list("showVenue")[row] ?? "",
        city: form.list("showCity")[row] ?? "",
      }))
    : loaderData.shows;

  return (
    <>
      <DashboardHeader
        title="Edit Profile"
        actions={
          <LinkButton to={artistPath(artistId)} variant="secondary">
            View your public page
          </LinkButton>
        }
      >
        What fans see on your public page.
      </DashboardHeader>
      <div className="grid max-w-3xl gap-6">
        <ProfilePictureForm
          userId={artistId}
          name={profile.artist_name}
          url={profile.profile_image_url}
          reply={actionData}
          path={profilePath}
        />

        <Form method="post" action={profilePath} noValidate className="grid gap-6">
          {/* Enter in a field saves, as the first submit button of a form is the one Enter presses. */}
          <button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true" />
          <FormAlert>{form.formError}</FormAlert>
          <FormAlert tone="success">{form.notice}</FormAlert>

          <Card className="grid gap-4">
            <h2 className="text-lg font-semibold">About you</h2>
            <Field
              label="Artist name"
              name="artistName"
              required
              maxLength={100}
              defaultValue={text("artistName", profile.artist_name)}
              error={form.error("artistName")}
            />
            <Field
              label="Short description"
              name="shortDescription"
              maxLength={200}
              hint="One line under your name, at most 200 characters."
              defaultValue={text("shortDescription", profile.short_description)}
              error={form.error("shortDescription")}
            />
            <TextareaField
              label="Bio"
              name="bio"
              rows={6}
              maxLength={5000}
              defaultValue={text("bio", profile.bio)}
              error={form.error("bio")}
            />
            <GenrePicker name="genres" legend="Genres" options={genres} selected={edited ? form.list("genres") : profile.genres} />
          </Card>

          <Card className="grid gap-4">
            <h2 className="text-lg font-semibold">Links</h2>
            <Field
              label="Website"
              name="website"
              type="url"
              placeholder="https://"
              defaultValue={text("website", profile.website)}
              error={form.error("website")}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Twitter"
                name="twitter"
                placeholder="@yourname"
                defaultValue={text("twitter", profile.social_links.twitter)}
                error={form.error("twitter")}
              />
              <Field
                label="Instagram"
                name="instagram"
                placeholder="@yourname"
                defaultValue={text("instagram", profile.social_links.instagram)}
                error={form.error("instagram")}
              />
            </div>
          </Card>

          <Card>
            <fieldset className="grid gap-4">
              <legend className="text-lg font-semibold">Tour dates</legend>
              <FormAlert>{form.error("showId")}</FormAlert>
              {shows.length === 0 ? <p className="text-sm text-ink-muted">No shows yet.</p> : null}
              {shows.map((show, row) => (
                <div
                  key={show.id}
                  className="grid items-start gap-3 rounded-xl border border-stage-700 p-4 sm:grid-cols-[10rem_1fr_1fr_auto]"
                >
                  <input type="hidden" name="showId" value={show.id} />
                  <Field
                    label={`Date of show ${row + 1}`}
                    name="showDate"
                    type="date"
                    defaultValue={show.date}
                    error={form.error(`shows.${row}.date`)}
                  />
                  <Field
                    label={`Venue of show ${row + 1}`}
                    name="showVenue"
                    defaultValue={show.venue}
                    error={form.error(`shows.${row}.venue`)}
                  />
                  <Field
                    label={`City of show ${row + 1}`}
                    name="showCity"
                    defaultValue={show.city}
                    error={form.error(`shows.${row}.city`)}
                  />
                  <Button type="submit" name="intent" value={`remove-show:${show.id}`} variant="secondary" className="sm:mt-7">
                    Remove show {row + 1}
                  </Button>
                </div>
              ))}
              <div>
                <Button type="submit" name="intent" value="add-show" variant="secondary">
                  Add show
                </Button>
              </div>
            </fieldset>
          </Card>

          <div className="max-w-xs">
            <SubmitButton action={profilePath} pendingLabel="Saving...">
              Save profile
            </SubmitButton>
          </div>
        </Form>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
