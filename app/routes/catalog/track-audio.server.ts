import { FunctionsHttpError } from "@supabase/supabase-js";
import { audioUrlErrorMessage } from "~/lib/errors";
import type { SupabaseClient } from "~/lib/supabase.server";
import type { AudioSource } from "~/components/track/waveform-player";

/**
 * Asks the track-audio-url Edge Function for a signed URL, as the reader (their session, or the anon key
 * for a visitor): the function checks the reader may play the track before signing. The browser cannot
 * ask itself, because the session lives in HttpOnly cookies only the Worker sees.
 */
export async function trackAudioSource(supabase: SupabaseClient, trackId: string): Promise<AudioSource> {
  const { data, error } = await supabase.functions.invoke<{ signedUrl?: string; expiresIn?: number }>("track-audio-url", {
    body: { trackId },
  });
  if (error) {
    const answer =
      error instanceof FunctionsHttpError
        ? ((await (error.context as Response).json().catch(() => null)) as { code?: unknown } | null)
        : null;
    const code = typeof answer?.code === "string" ? answer.code : null;
    console.warn("track-audio-url failed", trackId, code ?? error.message);
    return { error: audioUrlErrorMessage(code) };
  }
  if (!data?.signedUrl) return { error: audioUrlErrorMessage("no_signed_url") };
  return { url: data.signedUrl, expiresAt: Date.now() + (data.expiresIn ?? 3600) * 1000 };
}
