// Generated cover art and profile pictures: abstract designs in a palette per genre, seeded so the
// same release or profile always gets the same picture. Dark grounds and a vignette suit a dark UI.
import jpeg from "jpeg-js";
import { between, pick, randomFrom } from "./random.ts";

type Rgb = [number, number, number];
/** A shape: how much of the pixel at (x, y) in [0, 1]² it covers, and in which colour. */
type Layer = { color: Rgb; opacity: number; cover: (x: number, y: number) => number };

// First colour: the dark ground; the rest: the shapes.
const palettes: Record<string, string[]> = {
  Rock: ["#1c1917", "#7f1d1d", "#ef4444", "#f59e0b", "#fafaf9"],
  Pop: ["#2e1065", "#ec4899", "#f472b6", "#a855f7", "#fde68a"],
  "Hip Hop": ["#111827", "#eab308", "#f97316", "#4b5563", "#fafafa"],
  Electronic: ["#0f172a", "#06b6d4", "#8b5cf6", "#d946ef", "#22d3ee"],
  Jazz: ["#172554", "#1e3a8a", "#d97706", "#fef3c7", "#0f766e"],
  Classical: ["#1e293b", "#ca8a04", "#7f1d1d", "#f5f5f4", "#64748b"],
  "R&B": ["#1e1b4b", "#581c87", "#be185d", "#fda4af", "#f0abfc"],
  Folk: ["#14532d", "#4d7c0f", "#fde68a", "#c2410c", "#a3e635"],
  Metal: ["#0a0a0a", "#3f3f46", "#dc2626", "#a1a1aa", "#e4e4e7"],
  Country: ["#431407", "#92400e", "#fcd34d", "#7dd3fc", "#fb923c"],
  Blues: ["#0c0a3e", "#312e81", "#2563eb", "#60a5fa", "#e0e7ff"],
  Indie: ["#1e293b", "#14b8a6", "#fb7185", "#facc15", "#f1f5f9"],
};

const rgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;

// JPEG rather than PNG: the soft gradients and vignette leave PNG little to compress, and at this
// quality a cover weighs about 40% of the PNG, which a phone loading the home page's dozens feels.
const jpegQuality = 80;

/** A JPEG of `size`² pixels for `genre` (Pop's palette for an unknown genre), seeded by `seed`. */
export function renderArtwork(seed: string, genre: string, size = 512): Uint8Array {
  const random = randomFrom(seed);
  const [ground, ...colors] = (palettes[genre] ?? palettes.Pop).map(rgb);
  const design = pick(random, [orbs, rings, sunset, waves]);
  const layers = design(random, colors, 1.5 / size);
  const angle = between(random, 0, Math.PI * 2);
  const [dx, dy] = [Math.cos(angle), Math.sin(angle)];
  const glow = pick(random, colors);

  const pixels = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const x = (px + 0.5) / size;
      const y = (py + 0.5) / size;
      // Ground: the dark colour lifted towards one palette colour along a random direction.
      const lift = 0.35 * Math.max(0, Math.min(1, 0.5 + (x - 0.5) * dx + (y - 0.5) * dy));
      let r = ground[0] + (glow[0] - ground[0]) * lift;
      let g = ground[1] + (glow[1] - ground[1]) * lift;
      let b = ground[2] + (glow[2] - ground[2]) * lift;
      // Layers blend over it in order; plain numbers, as arrays here made the garbage collector busy.
      for (const layer of layers) {
        const amount = layer.opacity * layer.cover(x, y);
        if (amount <= 0) continue;
        r += (layer.color[0] - r) * amount;
        g += (layer.color[1] - g) * amount;
        b += (layer.color[2] - b) * amount;
      }
      const vignette = 1 - 0.45 * ((x - 0.5) ** 2 + (y - 0.5) ** 2);
      const offset = (py * size + px) * 4;
      pixels[offset] = Math.round(r * vignette);
      pixels[offset + 1] = Math.round(g * vignette);
      pixels[offset + 2] = Math.round(b * vignette);
      pixels[offset + 3] = 255;
    }
  }
  return jpeg.encode({ width: size, height: size, data: pixels }, jpegQuality).data;
}

/** Coverage of a shape at signed distance `distance` from its edge (negative inside), `blur` wide. */
function edge(distance: number, blur: number): number {
  return Math.max(0, Math.min(1, 0.5 - distance / blur));
}

// Math.hypot is several times slower, and this runs for every pixel of every shape.
const distance = (dx: number, dy: number) => Math.sqrt(dx * dx + dy * dy);

type Design = (random: () => number, colors: Rgb[], pixel: number) => Layer[];

/** Overlapping discs, some crisp, some soft as light. */
const orbs: Design = (random, colors, pixel) =>
  Array.from({ length: 3 + Math.floor(random() * 4) }, () => {
    const [cx, cy, r] = [between(random, 0.15, 0.85), between(random, 0.15, 0.85), between(random, 0.08, 0.4)];
    const blur = random() < 0.4 ? r * 0.8 : pixel;
    return {
      color: pick(random, colors),
      opacity: between(random, 0.55, 0.95),
      cover: (x, y) => edge(distance(x - cx, y - cy) - r, blur),
    };
  });

/** Concentric rings around an off-centre point. */
const rings: Design = (random, colors, pixel) => {
  const [cx, cy] = [between(random, 0.25, 0.75), between(random, 0.25, 0.75)];
  const width = between(random, 0.025, 0.06);
  const count = 4 + Math.floor(random() * 5);
  return Array.from({ length: count }, (_, i) => {
    const radius = (i + 1) * width * 2;
    return {
      color: colors[i % colors.length],
      opacity: 0.9 - (0.5 * i) / count,
      cover: (x, y) => edge(Math.abs(distance(x - cx, y - cy) - radius) - width / 2, pixel),
    };
  });
};

/** A striped sun over a dark horizon, in the manner of a retro poster. */
const sunset: Design = (random, colors, pixel) => {
  const horizon = between(random, 0.6, 0.75);
  const r = between(random, 0.22, 0.34);
  const cx = between(random, 0.35, 0.65);
  const [top, bottom] = [...colors].sort((a, b) => brightness(b) - brightness(a));
  const gap = between(random, 0.03, 0.045);
  const sun = (x: number, y: number) => {
    // Slits cut across the sun's lower half, widening towards the horizon.
    const height = (horizon - y) / (0.6 * r);
    const slit = height < 1 && ((horizon - y) / gap) % 1 < 0.8 * (1 - height);
    return slit ? 0 : edge(distance(x - cx, y - horizon) - r, pixel);
  };
  return [
    { color: top, opacity: 0.95, cover: sun },
    { color: bottom, opacity: 0.8, cover: (x, y) => sun(x, y) * Math.max(0, 1 - (horizon - y) / r) },
    { color: [0, 0, 0], opacity: 0.45, cover: (_, y) => edge(horizon - y, pixel) },
  ];
};

const brightness = ([r, g, b]: Rgb) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

/** Layered hills, like a landscape or a sound wave. */
const waves: Design = (random, colors, pixel) =>
  Array.from({ length: 4 + Math.floor(random() * 3) }, (_, i) => {
    const base = 0.3 + i * 0.12;
    const [amplitude, frequency, phase] = [between(random, 0.02, 0.08), between(random, 4, 12), between(random, 0, 6.3)];
    return {
      color: colors[i % colors.length],
      opacity: 0.55 + i * 0.08,
      cover: (x, y) => edge(base + amplitude * Math.sin(frequency * x + phase) - y, pixel),
    };
  });
