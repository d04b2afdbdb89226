import { FunctionsHttpError } from "@supabase/supabase-js";
import * as v from "valibot";
import { audioUrlErrorMessage } from "~/lib/errors";
import type { SupabaseClient } from "~/lib/supabase.server";
import type { AudioSource } from "~/components/track/waveform-player";

/** The function's answers (supabase/functions/track-audio-url): a signed URL, or a failure's code. */
const SignedUrlAnswer = v.object({ signedUrl: v.pipe(v.string(), v.nonEmpty()), expiresIn: v.optional(v.number(), 3600) });
const FailureAnswer = v.object({ code: v.string() });

/**
 * Asks the track-audio-url Edge Function for a signed URL, as the reader (their session, or the anon key
 * for a visitor): the function checks the reader may play the track before signing. The browser cannot
 * ask itself, because the session lives in HttpOnly cookies only the Worker sees.
 */
export async function trackAudioSource(supabase: SupabaseClient, trackId: string): Promise<AudioSource> {
  const { data, error } = await supabase.functions.invoke("track-audio-url", { body: { trackId } });
  if (error) {
    const context: unknown = error instanceof FunctionsHttpError ? error.context : null;
    const answer = context instanceof Response ? v.safeParse(FailureAnswer, await context.json().catch(() => null)) : null;
    const code = answer?.success ? answer.output.code : null;
    console.warn("track-audio-url failed", trackId, code ?? error.message);
    return { error: audioUrlErrorMessage(code) };
  }
  const signed = v.safeParse(SignedUrlAnswer, data);
  if (!signed.success) return { error: audioUrlErrorMessage("no_signed_url") };
  return { url: signed.output.signedUrl, expiresAt: Date.now() + signed.output.expiresIn * 1000 };
}
