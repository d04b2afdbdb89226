import type { ImageSize } from "../media/image-size";
import { sniffImage, type ImageType } from "../media/media-files";

// The small rendition of a release's artwork (about 200 px on its longer side) that cards and lists show,
// made in the browser before upload so no server has to decode images. WebP where the browser can write it,
// else PNG.

const longerSide = 200;

/** The small rendition's size for artwork of `size`: what it is made at, and what oEmbed names it by. */
export function smallArtworkSize({ width, height }: ImageSize): ImageSize {
  const scale = Math.min(1, longerSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export async function smallRendition(file: Blob): Promise<{ blob: Blob; type: ImageType } | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const canvas = document.createElement("canvas");
    const size = smallArtworkSize(bitmap);
    canvas.width = size.width;
    canvas.height = size.height;
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/webp", 0.85));
    const type = blob ? sniffImage(new Uint8Array(await blob.slice(0, 16).arrayBuffer())) : null;
    return blob && type ? { blob, type } : null;
  } catch {
    return null;
  }
}
