import * as v from "valibot";
import { invokeFunction } from "~/lib/backend/backend.server";
import { audioUrlErrorMessage } from "~/lib/backend/errors";
import type { RouterContextProvider } from "react-router";
import { cloudflareContext, clientAddress } from "~/lib/http/context.server";
import { userContext } from "~/lib/session/session.server";
import type { SupabaseClient } from "~/lib/backend/supabase.server";
import type { AudioSource } from "~/lib/player";

/** What a listener is told when they asked for more audio URLs than anyone listening needs. */
export const tooManyAudioUrls = "Too many tracks asked for at once. Please wait a minute and try again.";

/**
 * Whether this listener may have another signed audio URL now: at most 120 a minute (wrangler.toml,
 * AUDIO_URL_LIMITER), counted per account, or per address for a visitor (whose ids are theirs to rotate).
 */
export async function mayHaveAudioUrl(request: Request, context: Readonly<RouterContextProvider>): Promise<boolean> {
  const user = context.get(userContext);
  const key = user ? `user:${user.id}` : `address:${clientAddress(request) ?? "unknown"}`;
  const { success } = await context.get(cloudflareContext).env.AUDIO_URL_LIMITER.limit({ key });
  return success;
}

/** The function's answer (supabase/functions/track-audio-url): a signed URL and how long it lasts. */
const SignedUrlAnswer = v.object({ signedUrl: v.pipe(v.string(), v.nonEmpty()), expiresIn: v.optional(v.number(), 3600) });

/** Refusals that say the track has no audio to give (anything else is the service's own failure). */
const missingAudio = new Set(["no_audio_file", "audio_file_missing", "track_not_found"]);

/**
 * Asks the track-audio-url Edge Function for a signed URL, as the reader (their session, or the anon key
 * for a visitor): the function checks the reader may play the track before signing. The browser cannot
 * ask itself, because the session lives in HttpOnly cookies only the Worker sees. `missing`: the track
 * has no audio to play, rather than the service failing.
 */
export async function trackAudioSource(supabase: SupabaseClient, trackId: string): Promise<AudioSource> {
  const signed = await invokeFunction(supabase, "track-audio-url", { trackId }, SignedUrlAnswer).catch(
    (error: unknown): { ok: false; code: null } => {
      console.error("asking for a track's audio URL failed", error);
      return { ok: false, code: null };
    },
  );
  if (!signed.ok) return { error: audioUrlErrorMessage(signed.code), missing: signed.code !== null && missingAudio.has(signed.code) };
  return { url: signed.data.signedUrl, expiresAt: Date.now() + signed.data.expiresIn * 1000 };
}
