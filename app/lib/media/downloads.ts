// What a download is called: file names every system accepts (Windows, macOS, Linux, phones), for a
// track's file and for an album's zip and the files inside it; and the formats a fan downloads in.
import { downloadMadeFormats, madeFormats, type DownloadMadeFormat } from "../../../supabase/functions/_shared/made-formats";

const maximumNameBytes = 200;
const encoder = new TextEncoder();

/**
 * `name` as a safe file name: no path separators, none of the characters Windows refuses, no control
 * characters, no leading or trailing dots and spaces, not a device name Windows reserves, at most 200
 * bytes of UTF-8 (filesystems allow 255), whole characters only. Empty becomes `fallback`.
 */
export function safeFileName(name: string, fallback = "Untitled"): string {
  let safe = name
    .normalize("NFC")
    // eslint-disable-next-line no-control-regex -- control characters are exactly what no file name may hold
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, " ")
    .replace(/\s+/g, " ")
    .replace(/^[. ]+|[. ]+$/g, "");
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(safe)) safe = `_${safe}`;
  let bytes = 0;
  let kept = "";
  for (const character of safe) {
    bytes += encoder.encode(character).length;
    if (bytes > maximumNameBytes) break;
    kept += character;
  }
  kept = kept.replace(/[. ]+$/, "");
  return kept || fallback;
}

/** A stored file's extension (its format as uploaded), lower case; `audio` when it has none. */
export function extensionOf(path: string): string {
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(path)?.[1];
  return extension ? extension.toLowerCase() : "audio";
}

type Downloaded = { path: string; title: string; artist_name: string; album_title: string | null; track_number: number | null };

/** A track's file: `Artist - Title.wav`. */
export function trackFileName(file: Downloaded): string {
  return `${safeFileName(`${file.artist_name} - ${file.title}`)}.${extensionOf(file.path)}`;
}

/** An album's zip (`Artist - Album.zip`) and its files, in a folder of the same name: `01 Title.wav`. */
export function albumFileNames(files: Downloaded[]): { zip: string; entries: string[] } {
  const [first] = files;
  const folder = safeFileName(`${first?.artist_name ?? ""} - ${first?.album_title ?? first?.title ?? ""}`, "Album");
  const used = new Set<string>();
  const entries = files.map((file, index) => {
    const number = String(file.track_number ?? index + 1).padStart(2, "0");
    let name = `${safeFileName(`${number} ${file.title}`)}.${extensionOf(file.path)}`;
    // Two tracks of one title and number stay two files.
    for (let again = 2; used.has(name.toLowerCase()); again += 1)
      name = `${safeFileName(`${number} ${file.title} (${again})`)}.${extensionOf(file.path)}`;
    used.add(name.toLowerCase());
    return `${folder}/${name}`;
  });
  return { zip: `${folder}.zip`, entries };
}

const formatNames: Record<string, string> = {
  wav: "WAV",
  mp3: "MP3",
  aac: "AAC",
  m4a: "AAC",
  ogg: "Ogg",
  oga: "Ogg",
  opus: "Opus",
  flac: "FLAC",
};

/** What a master's format (its file ending) is called: `WAV`, `MP3`, `AAC`, `Ogg`. */
const formatName = (ending: string) => formatNames[ending] ?? ending.toUpperCase();

/** A download's format: the master as uploaded, or a file the media Worker makes of it. */
export type DownloadFormat = "original" | DownloadMadeFormat;

/**
 * What a made download format is called: `FLAC`; an MP3 with the bitrate its master warrants (`MP3 320 kbps`,
 * `MP3 128 kbps`), or a range over several masters (`MP3 128-320 kbps`), or plain `MP3` while unknown.
 */
export function downloadLabel(format: DownloadMadeFormat, mp3Kbps: (number | null)[] = []): string {
  const { label } = madeFormats[format];
  if (format !== "mp3" || mp3Kbps.length === 0 || !mp3Kbps.every((kbps): kbps is number => kbps !== null)) return label;
  const [least, most] = [Math.min(...mp3Kbps), Math.max(...mp3Kbps)];
  return least === most ? `${label} ${most} kbps` : `${label} ${least}-${most} kbps`;
}

/** Whether FLAC is made of this master format (`wav`): private.is_lossless_master decides what is made; this says it. */
export const isLosslessMaster = (masterFormat: string | null) => masterFormat === "wav";

/** A master as the pages that offer its downloads know it: its format (`wav`) and the MP3 it warrants. */
export type MasterOffer = { format: string | null; mp3_kbps: number | null };

/** The formats a fan chooses from for these masters (the lossless-only ones where one is lossless), for the Download form's choice. */
export function downloadChoices(masters: MasterOffer[]): { format: DownloadFormat; label: string }[] {
  const lossless = masters.some((master) => isLosslessMaster(master.format));
  return [
    { format: "original", label: "As uploaded" },
    ...downloadMadeFormats
      .filter((format) => lossless || !madeFormats[format].losslessOnly)
      .map((format) => ({
        format,
        label: downloadLabel(
          format,
          masters.map((master) => master.mp3_kbps),
        ),
      })),
  ];
}

/** What a release's downloads are, stated before anyone buys: `WAV as uploaded, MP3 320 kbps, FLAC`; null without audio. */
export function downloadFormats(masters: MasterOffer[]): string | null {
  const endings = masters.flatMap((master) => (master.format ? [master.format] : []));
  if (endings.length === 0) return null;
  const originals = [...new Set(endings.map(formatName))].sort().join(", ");
  const made = downloadChoices(masters.filter((master) => master.format)).slice(1);
  return [`${originals} as uploaded`, ...made.map((choice) => choice.label)].join(", ");
}

/** A download address's `?format=`: one of the formats on offer, the original when none is named; null for any other. */
export function downloadFormatOf(url: URL): DownloadFormat | null {
  const format = url.searchParams.get("format") ?? "original";
  if (format === "original") return format;
  return downloadMadeFormats.find((made) => made === format) ?? null;
}

/**
 * `Content-Disposition` for a file saved under `name`, exactly (accents, `&`, parentheses, emoji): `filename*`
 * percent-encodes its UTF-8 (RFC 8187), which browsers read, and `filename` carries the name itself (the
 * Worker sends it as UTF-8), which tools that read only it (`curl -OJ`) save as the same name.
 */
export function attachment(name: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*!]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${name.replace(/["\\]/g, "_")}"; filename*=UTF-8''${encoded}`;
}
