// Short demo tracks synthesised at seed time, so the repository carries no audio binaries.
// Each piece is a loop of a genre-flavoured chord progression with bass, drums and a melody built
// from a repeated motif; the track id seeds every choice, so a track always sounds the same.
import { between, pick, randomFrom } from "./random.ts";

export const sampleRate = 22050;

type Instrument = "keys" | "organ" | "pad" | "pluck" | "drive" | "bell" | "flute";
type Quality = "maj" | "min" | "5" | "7" | "maj7" | "m7";
type Chord = [root: number, quality: Quality];
type Part = { instrument: Instrument; pattern: string; octave: number };

/**
 * How a genre sounds. Patterns are one bar of 16 sixteenth steps:
 * harmony 'x' strikes the chord, 'a' plays the next arpeggio note; bass letters name the note
 * (r root, t third, f fifth, s sixth, b flat seventh, o octave, w walking); drums 'x' hit, 'g' ghost,
 * 'o' open hat; '.' holds or rests.
 */
type Style = {
  bpm: [number, number];
  swing: number;
  tonics: number[];
  scale: number[];
  progressions: Chord[][];
  harmony: Part[];
  bass: string;
  lead?: { instrument: Instrument; density: number };
  drums?: { kick: string; snare: string; hat: string };
};

const major = [0, 2, 4, 5, 7, 9, 11];
const minor = [0, 2, 3, 5, 7, 8, 10];
const minorPentatonic = [0, 3, 5, 7, 10];
const majorPentatonic = [0, 2, 4, 7, 9];
const blues = [0, 3, 5, 6, 7, 10];
const backbeat = "....x.......x...";
const eighths = "x.x.x.x.x.x.x.x.";

const styles: Record<string, Style> = {
  Rock: {
    bpm: [112, 132],
    swing: 0,
    tonics: [52, 55, 57],
    scale: minorPentatonic,
    progressions: [
      [
        [0, "5"],
        [10, "5"],
        [5, "5"],
        [0, "5"],
      ],
      [
        [0, "5"],
        [5, "5"],
        [7, "5"],
        [5, "5"],
      ],
    ],
    harmony: [{ instrument: "drive", pattern: eighths, octave: 0 }],
    bass: "r.r.r.r.r.r.r.r.",
    lead: { instrument: "drive", density: 0.5 },
    drums: { kick: "x.....x.x.......", snare: backbeat, hat: eighths },
  },
  Pop: {
    bpm: [98, 118],
    swing: 0,
    tonics: [60, 62, 64, 65],
    scale: major,
    progressions: [
      [
        [0, "maj"],
        [7, "maj"],
        [9, "min"],
        [5, "maj"],
      ],
      [
        [9, "min"],
        [5, "maj"],
        [0, "maj"],
        [7, "maj"],
      ],
    ],
    harmony: [{ instrument: "pad", pattern: "x.......x.......", octave: 0 }],
    bass: "r.r.r.r.r.r.f.r.",
    lead: { instrument: "bell", density: 0.55 },
    drums: { kick: "x.......x.x.....", snare: backbeat, hat: eighths },
  },
  "Hip Hop": {
    bpm: [84, 94],
    swing: 0.3,
    tonics: [57, 58, 60],
    scale: minor,
    progressions: [
      [
        [0, "m7"],
        [8, "maj7"],
        [3, "maj7"],
        [10, "7"],
      ],
      [
        [0, "m7"],
        [5, "m7"],
        [8, "maj7"],
        [7, "m7"],
      ],
    ],
    harmony: [{ instrument: "keys", pattern: "x.......x.......", octave: 0 }],
    bass: "r.....r...r.....",
    lead: { instrument: "bell", density: 0.3 },
    drums: { kick: "x......x..x.....", snare: backbeat, hat: eighths },
  },
  Electronic: {
    bpm: [120, 128],
    swing: 0,
    tonics: [57, 60, 62],
    scale: minor,
    progressions: [
      [
        [0, "min"],
        [8, "maj"],
        [3, "maj"],
        [10, "maj"],
      ],
      [
        [0, "min"],
        [10, "maj"],
        [8, "maj"],
        [10, "maj"],
      ],
    ],
    harmony: [
      { instrument: "pad", pattern: "x...............", octave: 0 },
      { instrument: "pluck", pattern: "a.aaa.aaa.aaa.aa", octave: 12 },
    ],
    bass: "..r...r...r...r.",
    drums: { kick: "x...x...x...x...", snare: backbeat, hat: "..o...o...o...o." },
  },
  Jazz: {
    bpm: [112, 136],
    swing: 0.6,
    tonics: [58, 60, 63, 65],
    scale: major,
    progressions: [
      [
        [2, "m7"],
        [7, "7"],
        [0, "maj7"],
        [9, "m7"],
      ],
      [
        [0, "maj7"],
        [9, "m7"],
        [2, "m7"],
        [7, "7"],
      ],
    ],
    harmony: [{ instrument: "keys", pattern: "x.....x.......x.", octave: 0 }],
    bass: "r...w...w...w...",
    lead: { instrument: "flute", density: 0.55 },
    drums: { kick: "g.......g.......", snare: "....g.......g...", hat: "x...x.x.x...x.x." },
  },
  Classical: {
    bpm: [66, 80],
    swing: 0,
    tonics: [60, 62, 65, 67],
    scale: major,
    progressions: [
      [
        [0, "maj"],
        [9, "min"],
        [5, "maj"],
        [7, "maj"],
      ],
      [
        [0, "maj"],
        [5, "maj"],
        [7, "7"],
        [0, "maj"],
      ],
    ],
    harmony: [
      { instrument: "pad", pattern: "x...............", octave: -12 },
      { instrument: "keys", pattern: "a.a.a.a.a.a.a.a.", octave: 0 },
    ],
    bass: "r...............",
    lead: { instrument: "flute", density: 0.45 },
  },
  "R&B": {
    bpm: [68, 80],
    swing: 0.25,
    tonics: [58, 60, 63],
    scale: major,
    progressions: [
      [
        [5, "maj7"],
        [4, "m7"],
        [2, "m7"],
        [0, "maj7"],
      ],
      [
        [0, "maj7"],
        [2, "m7"],
        [4, "m7"],
        [5, "maj7"],
      ],
    ],
    harmony: [{ instrument: "keys", pattern: "x.......x.......", octave: 0 }],
    bass: "r.....r...r..f..",
    lead: { instrument: "flute", density: 0.4 },
    drums: { kick: "x.....x...x.....", snare: backbeat, hat: "xgxgxgxgxgxgxgxg" },
  },
  Folk: {
    bpm: [92, 110],
    swing: 0,
    tonics: [55, 57, 60, 62],
    scale: major,
    progressions: [
      [
        [0, "maj"],
        [5, "maj"],
        [0, "maj"],
        [7, "maj"],
      ],
      [
        [0, "maj"],
        [7, "maj"],
        [9, "min"],
        [5, "maj"],
      ],
    ],
    harmony: [{ instrument: "pluck", pattern: "a.a.a.a.a.a.a.a.", octave: 0 }],
    bass: "r.......f.......",
    lead: { instrument: "flute", density: 0.4 },
    drums: { kick: "................", snare: "................", hat: "..g...g...g...g." },
  },
  Metal: {
    bpm: [150, 172],
    swing: 0,
    tonics: [50, 52],
    scale: minor,
    progressions: [
      [
        [0, "5"],
        [8, "5"],
        [10, "5"],
        [0, "5"],
      ],
      [
        [0, "5"],
        [3, "5"],
        [10, "5"],
        [8, "5"],
      ],
    ],
    harmony: [{ instrument: "drive", pattern: "x.xxx.xxx.xxx.xx", octave: -12 }],
    bass: "r.rrr.rrr.rrr.rr",
    lead: { instrument: "drive", density: 0.5 },
    drums: { kick: eighths, snare: backbeat, hat: "x...x...x...x..." },
  },
  Country: {
    bpm: [100, 120],
    swing: 0,
    tonics: [55, 57, 60, 62],
    scale: majorPentatonic,
    progressions: [
      [
        [0, "maj"],
        [5, "maj"],
        [7, "maj"],
        [0, "maj"],
      ],
      [
        [0, "maj"],
        [0, "maj"],
        [5, "maj"],
        [7, "7"],
      ],
    ],
    harmony: [{ instrument: "pluck", pattern: "....x.......x...", octave: 0 }],
    bass: "r.......f.......",
    lead: { instrument: "pluck", density: 0.6 },
    drums: { kick: "x.......x.......", snare: backbeat, hat: "g.g.g.g.g.g.g.g." },
  },
  Blues: {
    bpm: [88, 100],
    swing: 0.6,
    tonics: [52, 55, 57],
    scale: blues,
    progressions: [
      [
        [0, "7"],
        [0, "7"],
        [0, "7"],
        [0, "7"],
        [5, "7"],
        [5, "7"],
        [0, "7"],
        [0, "7"],
        [7, "7"],
        [5, "7"],
        [0, "7"],
        [7, "7"],
      ],
    ],
    harmony: [{ instrument: "organ", pattern: "x.......x.......", octave: 0 }],
    bass: "r.t.f.s.b.s.f.t.",
    lead: { instrument: "drive", density: 0.45 },
    drums: { kick: "x.......x.......", snare: backbeat, hat: eighths },
  },
  Indie: {
    bpm: [116, 134],
    swing: 0,
    tonics: [57, 60, 62, 64],
    scale: major,
    progressions: [
      [
        [2, "min"],
        [5, "maj"],
        [0, "maj"],
        [7, "maj"],
      ],
      [
        [0, "maj"],
        [7, "maj"],
        [5, "maj"],
        [5, "maj"],
      ],
    ],
    harmony: [{ instrument: "pluck", pattern: eighths, octave: 0 }],
    bass: eighths.replaceAll("x", "r"),
    lead: { instrument: "bell", density: 0.45 },
    drums: { kick: "x.....x.x.......", snare: backbeat, hat: eighths },
  },
};

const qualities: Record<Quality, number[]> = {
  maj: [0, 4, 7],
  min: [0, 3, 7],
  "5": [0, 7, 12],
  "7": [0, 4, 7, 10],
  maj7: [0, 4, 7, 11],
  m7: [0, 3, 7, 10],
};

/** Loudness of one note per instrument, so no part drowns the others. */
const gains: Record<Instrument, number> = {
  keys: 0.22,
  organ: 0.12,
  pad: 0.1,
  pluck: 0.3,
  drive: 0.09,
  bell: 0.2,
  flute: 0.2,
};

export type Composition = { samples: Float32Array; genre: string; bpm: number; seconds: number };

/** Composes a 20-40 s piece in the style of `genre` (Pop for an unknown genre), seeded by `seed`. */
export function composeTrack(seed: string, genre: string): Composition {
  const random = randomFrom(seed);
  const style = styles[genre] ?? styles.Pop;
  const bpm = Math.round(between(random, ...style.bpm));
  const tonic = pick(random, style.tonics);
  const progression = pick(random, style.progressions);
  const barSeconds = 240 / bpm;
  const tail = 2;
  // Whole rounds of the progression, then one closing bar on the tonic.
  let rounds = Math.max(1, Math.round(between(random, 20, 28) / (progression.length * barSeconds)));
  while (rounds > 1 && (rounds * progression.length + 1) * barSeconds + tail > 34) rounds--;
  while ((rounds * progression.length + 1) * barSeconds + tail < 21) rounds++;
  const bars = rounds * progression.length + 1;
  const seconds = bars * barSeconds + tail;
  const song = new Song(Math.ceil(seconds * sampleRate), random);
  const step = barSeconds / 16;
  // Swung off-beats land later, up to a triplet feel.
  const at = (bar: number, s: number) => (bar * 16 + s + (s % 4 === 2 ? style.swing * 0.67 : 0)) * step;
  const melody = new Melody(random, style.scale, tonic + 12, style.lead?.density ?? 0);

  for (let bar = 0; bar < bars; bar++) {
    const closing = bar === bars - 1;
    const [root, quality] = closing ? progression[0] : progression[bar % progression.length];
    const chordRoot = tonic + (root > 6 ? root - 12 : root);
    const intervals = qualities[quality];
    const chordTones = intervals.map((interval) => chordRoot + interval);

    if (closing) {
      for (const note of chordTones) song.note("pad", note, at(bar, 0), barSeconds, 1.3);
      song.bass(chordRoot - 24, at(bar, 0), barSeconds, 1);
      break;
    }

    for (const part of style.harmony) {
      const arpeggio = [...chordTones, chordRoot + 12, ...chordTones.slice(1).reverse()];
      let arpeggioIndex = 0;
      forEachHit(part.pattern, (s, length) => {
        const start = at(bar, s);
        if (part.pattern[s] === "a") {
          const note = arpeggio[arpeggioIndex++ % arpeggio.length] + part.octave;
          song.note(part.instrument, note, start, length * step * 1.5, 0.9);
        } else {
          // A strum: each string a few milliseconds after the last.
          chordTones.forEach((note, i) => song.note(part.instrument, note + part.octave, start + i * 0.012, length * step, 1));
        }
      });
    }

    forEachHit(style.bass, (s, length) => {
      const letter = style.bass[s];
      const offset = letter === "w" ? pick(random, [intervals[1], 7, 12, 9, 10]) : bassOffsets[letter](intervals);
      const note = chordRoot - 24 + offset;
      song.bass(note < 31 ? note + 12 : note, at(bar, s), length * step * 0.9, s % 4 === 0 ? 1 : 0.8);
    });

    // The first bar is an intro of harmony and bass alone.
    if (style.drums && bar > 0) {
      const { kick, snare, hat } = style.drums;
      forEachHit(kick, (s) => song.kick(at(bar, s), kick[s] === "g" ? 0.4 : 1));
      forEachHit(snare, (s) => song.snare(at(bar, s), snare[s] === "g" ? 0.35 : 1));
      forEachHit(hat, (s) => song.hat(at(bar, s), hat[s] === "g" ? 0.5 : 1, hat[s] === "o"));
    }

    if (style.lead && bar >= Math.min(2, bars - 2)) {
      for (const note of melody.bar(bar, chordTones)) {
        song.note(style.lead.instrument, note.midi, at(bar, note.step), note.steps * step, note.velocity);
      }
    }
  }
  song.finish(barSeconds * 0.375);
  return { samples: song.samples, genre: styles[genre] ? genre : "Pop", bpm, seconds };
}

const bassOffsets: Record<string, (intervals: number[]) => number> = {
  r: () => 0,
  t: (intervals) => intervals[1],
  f: () => 7,
  s: () => 9,
  b: () => 10,
  o: () => 12,
};

/** Calls `hit(step, length)` for each non-'.' step; the length runs to the next hit or the bar's end. */
function forEachHit(pattern: string, hit: (step: number, length: number) => void) {
  for (let s = 0; s < 16; s++) {
    if (pattern[s] === ".") continue;
    let next = s + 1;
    while (next < 16 && pattern[next] === ".") next++;
    hit(s, next - s);
  }
}

type MelodyNote = { step: number; steps: number; midi: number; velocity: number };
type MotifNote = { eighth: number; eighths: number; move: number };

/** Two-bar motifs A and B played A A B A, moving through the scale and landing on chord tones. */
class Melody {
  random: () => number;
  scale: number[];
  home: number;
  motifs: MotifNote[][];
  position = 0;

  constructor(random: () => number, scale: number[], home: number, density: number) {
    this.random = random;
    this.scale = scale;
    this.home = home;
    this.motifs = [this.motif(density), this.motif(density)];
  }

  motif(density: number): MotifNote[] {
    const notes: MotifNote[] = [];
    for (let eighth = 0; eighth < 16; eighth++) {
      const onBeat = eighth % 2 === 0;
      if (this.random() > density * (onBeat ? 1.3 : 0.7)) continue;
      const move = pick(this.random, [-2, -1, -1, 0, 1, 1, 2, 3]);
      notes.push({ eighth, eighths: 1, move });
    }
    notes.forEach((note, i) => {
      const next = notes[i + 1]?.eighth ?? 16;
      note.eighths = Math.min(4, next - note.eighth);
    });
    return notes;
  }

  bar(bar: number, chordTones: number[]): MelodyNote[] {
    const motif = this.motifs[[0, 0, 1, 0][Math.floor(bar / 2) % 4]];
    const half = bar % 2;
    if (half === 0) this.position = this.nearestChordTone(this.position, chordTones);
    return motif
      .filter((note) => Math.floor(note.eighth / 8) === half)
      .map((note) => {
        this.position = Math.max(-5, Math.min(7, this.position + note.move));
        if (note.eighth % 4 === 0) this.position = this.nearestChordTone(this.position, chordTones);
        return {
          step: (note.eighth % 8) * 2,
          steps: note.eighths * 2,
          midi: this.midi(this.position),
          velocity: (note.eighth % 4 === 0 ? 1 : 0.8) * between(this.random, 0.85, 1),
        };
      });
  }

  midi(position: number): number {
    const octave = Math.floor(position / this.scale.length);
    return this.home + octave * 12 + this.scale[position - octave * this.scale.length];
  }

  nearestChordTone(position: number, chordTones: number[]): number {
    const classes = chordTones.map((note) => note % 12);
    for (const distance of [0, 1, -1, 2, -2, 3, -3]) {
      if (classes.includes(this.midi(position + distance) % 12)) return position + distance;
    }
    return position;
  }
}

const frequency = (midi: number) => 440 * 2 ** ((midi - 69) / 12);
const tau = 2 * Math.PI;

// A sine table: Math.sin on every sample of every voice was most of the synthesis time.
const sineTable = Float32Array.from({ length: 4097 }, (_, i) => Math.sin((tau * i) / 4096));
/** sin(2π·cycles), linearly interpolated from the table. */
function sine(cycles: number): number {
  const x = (cycles - Math.floor(cycles)) * 4096;
  const i = x | 0;
  return sineTable[i] + (sineTable[i + 1] - sineTable[i]) * (x - i);
}

/**
 * The mix being written. Each distinct sound (instrument, pitch, length) is rendered once and then
 * mixed in wherever it recurs, as a sampler would: patterns repeat, so this is most of the speed.
 */
class Song {
  samples: Float32Array;
  random: () => number;
  sounds = new Map<string, Float32Array>();

  constructor(length: number, random: () => number) {
    this.samples = new Float32Array(length);
    this.random = random;
  }

  /** Mixes the sound `key` at `start` seconds, rendering it first from `voice(t)` if it is new. */
  play(key: string, start: number, gain: number, seconds: number, voice: (t: number) => number) {
    let sound = this.sounds.get(key);
    if (!sound) {
      sound = new Float32Array(Math.round(seconds * sampleRate));
      for (let i = 0; i < sound.length; i++) sound[i] = voice(i / sampleRate);
      this.sounds.set(key, sound);
    }
    const from = Math.round(start * sampleRate);
    const count = Math.min(sound.length, this.samples.length - from);
    for (let i = 0; i < count; i++) this.samples[from + i] += gain * sound[i];
  }

  note(instrument: Instrument, midi: number, start: number, length: number, velocity: number) {
    const f = frequency(midi);
    const key = `${instrument} ${midi} ${length.toFixed(3)}`;
    const gain = gains[instrument] * velocity;
    const release = (t: number, seconds: number) => (t < length ? 1 : Math.max(0, 1 - (t - length) / seconds));
    if (instrument === "pluck") {
      // Harmonics that fade faster the higher they are; past 1.5 s even the fundamental is gone.
      const seconds = Math.min(length + 0.4, 1.5);
      return this.play(key, start, gain, seconds, (t) => {
        const fade = Math.exp(-2 * t);
        let level = Math.exp(-1.5 * t);
        let tone = 0;
        for (let k = 1; k <= 6; k++) {
          level *= fade;
          tone += (sine(k * f * t) * level) / k;
        }
        return tone * Math.min(1, t / 0.002, (seconds - t) / 0.05);
      });
    }
    if (instrument === "keys" || instrument === "bell") {
      // Two-operator FM: an electric piano, or a bell with an inharmonic ratio.
      const [ratio, depth, decay] = instrument === "keys" ? [1, 1.4, 2.2] : [3.5, 2, 3.5];
      return this.play(key, start, gain, length + 0.3, (t) => {
        const envelope = Math.min(1, t / 0.004) * Math.exp(-t * decay) * release(t, 0.3);
        return envelope * sine(f * t + (depth / tau) * Math.exp(-t * 5) * sine(f * ratio * t));
      });
    }
    if (instrument === "organ" || instrument === "flute") {
      const organ = instrument === "organ";
      return this.play(key, start, gain, length + 0.12, (t) => {
        // Flute vibrato: a 5 Hz wobble of ±0.4% in pitch, easing in over the first 0.4 s.
        const vibrato = organ ? 0 : ((0.004 * f) / (tau * 5)) * Math.min(1, t / 0.4) * sine(5 * t);
        const cycles = f * t + vibrato;
        const tone = organ ? sine(cycles) + 0.5 * sine(2 * cycles) + 0.3 * sine(3 * cycles) : sine(cycles) + 0.15 * sine(2 * cycles);
        return tone * Math.min(1, t / (organ ? 0.01 : 0.06)) * release(t, 0.12);
      });
    }
    // Pad and drive: two detuned saws through a one-pole low-pass; drive clips them like an amp.
    const drive = instrument === "drive";
    const smoothing = 1 - Math.exp((-tau * (drive ? 1800 : 1100)) / sampleRate);
    const attack = drive ? 0.008 : 0.25;
    let filtered = 0;
    this.play(key, start, gain, length + (drive ? 0.08 : 0.5), (t) => {
      const saw = ((f * 1.003 * t) % 1) + ((f * 0.997 * t) % 1) - 1;
      filtered += smoothing * ((drive ? (4 * saw) / (1 + Math.abs(4 * saw)) : saw) - filtered);
      return filtered * Math.min(1, t / attack) * release(t, drive ? 0.08 : 0.5);
    });
  }

  bass(midi: number, start: number, length: number, velocity: number) {
    const f = frequency(midi);
    const seconds = length + 0.04;
    this.play(`bass ${midi} ${length.toFixed(3)}`, start, 0.3 * velocity, seconds, (t) => {
      const envelope = Math.min(1, t / 0.006, (seconds - t) / 0.04) * (0.7 + 0.3 * Math.exp(-t * 6));
      return envelope * (sine(f * t) + 0.3 * sine(2 * f * t) + 0.1 * sine(3 * f * t));
    });
  }

  kick(start: number, velocity: number) {
    let cycles = 0;
    this.play("kick", start, 0.7 * velocity, 0.35, (t) => {
      cycles += (45 + 90 * Math.exp(-t * 30)) / sampleRate;
      return Math.exp(-t * 9) * sine(cycles);
    });
  }

  snare(start: number, velocity: number) {
    this.play("snare", start, 0.3 * velocity, 0.25, (t) => {
      const noise = (this.random() * 2 - 1) * Math.exp(-t * 18);
      return noise + 0.6 * sine(185 * t) * Math.exp(-t * 25);
    });
  }

  hat(start: number, velocity: number, open: boolean) {
    let previous = 0;
    this.play(open ? "open hat" : "hat", start, 0.06 * velocity, open ? 0.3 : 0.06, (t) => {
      // The difference of successive noise samples keeps only the hiss.
      const noise = this.random() * 2 - 1;
      const hiss = noise - previous;
      previous = noise;
      return hiss * Math.exp(-t * (open ? 12 : 60));
    });
  }

  /** Echo, fades and normalisation. */
  finish(echoSeconds: number) {
    const samples = this.samples;
    const delay = Math.round(echoSeconds * sampleRate);
    for (let i = delay; i < samples.length; i++) samples[i] += 0.22 * samples[i - delay];
    let peak = 0;
    for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
    const fadeIn = 0.8 * sampleRate;
    const fadeOut = 2.5 * sampleRate;
    for (let i = 0; i < samples.length; i++) {
      const fade = Math.min(1, i / fadeIn, (samples.length - i) / fadeOut);
      samples[i] = (0.9 * samples[i] * fade) / (peak || 1);
    }
  }
}

/** 16-bit PCM WAV bytes for samples in [-1, 1]: one channel, or several (each its own array, of one length). */
export function encodeWav(samples: Float32Array | Float32Array[], rate = sampleRate): Uint8Array<ArrayBuffer> {
  const channels = Array.isArray(samples) ? samples : [samples];
  const frames = channels[0]?.length ?? 0;
  const frameBytes = channels.length * 2;
  const bytes = new Uint8Array(44 + frames * frameBytes);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i++) bytes[offset + i] = value.charCodeAt(i);
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + frames * frameBytes, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channels.length, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * frameBytes, true); // bytes per second
  view.setUint16(32, frameBytes, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  text(36, "data");
  view.setUint32(40, frames * frameBytes, true);
  for (let frame = 0; frame < frames; frame++) {
    channels.forEach((channel, index) => {
      const at = 44 + frame * frameBytes + index * 2;
      view.setInt16(at, Math.round(Math.max(-1, Math.min(1, channel[frame]!)) * 32767), true);
    });
  }
  return bytes;
}
