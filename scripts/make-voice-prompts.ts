/**
 * Makes the recorded prompts a voice verification call plays (issue 20): the digits 0-9 and a
 * lead-in, in Mandarin and English, as headerless G.711 µ-law at 8 kHz, under
 * server/assets/voice/{zh-cn,en}/. The outputs are committed: nothing is generated when Herald is
 * installed or run, so this is run by hand, once, on a machine with Debian's espeak-ng
 * (`apt-get install -y espeak-ng`).
 *
 *   npm exec -- node scripts/make-voice-prompts.ts
 *
 * espeak-ng speaks at 22,050 Hz; the phone network carries 8,000 Hz. Dropping samples would fold
 * everything above 4 kHz back into the voice band as hiss, so each prompt goes through a
 * windowed-sinc low-pass first (cut at 3.6 kHz, under the new Nyquist of 4 kHz), then is trimmed
 * to where the voice starts and ends (the call inserts its own silences) and encoded to µ-law.
 * A trimmed prompt therefore starts and ends on a sounding sample, never on µ-law silence (0xFF).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const OUT_RATE = 8000;
const CUTOFF_HZ = 3600;
/** Filter taps on each side of a sample: enough for a steep edge, cheap for prompts this short. */
const HALF_TAPS = 48;
/** Samples quieter than this (of 32,767) before the first and after the last loud one are cut. */
const TRIM_LEVEL = 400;

const PROMPTS = {
  'zh-cn': {
    voice: 'cmn',
    leadIn: '您的验证码是',
    digits: ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'],
  },
  en: {
    voice: 'en',
    leadIn: 'Your verification code is',
    digits: ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'],
  },
} as const;

const ASSETS = path.join(import.meta.dirname, '..', 'server', 'assets', 'voice');

function main(): void {
  const work = mkdtempSync(path.join(tmpdir(), 'voice-prompts-'));
  try {
    for (const [language, prompts] of Object.entries(PROMPTS)) {
      const dir = path.join(ASSETS, language);
      mkdirSync(dir, { recursive: true });
      const items: [string, string][] = [
        ['lead-in', prompts.leadIn],
        ...prompts.digits.map((word, digit): [string, string] => [String(digit), word]),
      ];
      for (const [name, words] of items) {
        const wav = path.join(work, `${language}-${name}.wav`);
        execFileSync('espeak-ng', ['-v', prompts.voice, '-w', wav, words]);
        const { samples, rate } = readWav(readFileSync(wav));
        const encoded = encodeMuLaw(trim(resample(samples, rate, OUT_RATE)));
        writeFileSync(path.join(dir, `${name}.ul`), encoded);
        process.stdout.write(`${language}/${name}.ul  ${encoded.length} bytes  (${words})\n`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The 16-bit mono PCM samples of a WAV file (RIFF chunks: `fmt `, then `data`). */
function readWav(file: Buffer): { samples: Int16Array; rate: number } {
  if (file.toString('latin1', 0, 4) !== 'RIFF' || file.toString('latin1', 8, 12) !== 'WAVE')
    throw new Error('not a WAV file');
  let rate = 0;
  for (let at = 12; at + 8 <= file.length; ) {
    const id = file.toString('latin1', at, at + 4);
    // espeak-ng may leave a streaming size (0x7fffffff) in place: the chunk runs to the file's end.
    const size = Math.min(file.readUInt32LE(at + 4), file.length - at - 8);
    const body = at + 8;
    if (id === 'fmt ') {
      const format = file.readUInt16LE(body);
      const channels = file.readUInt16LE(body + 2);
      const bits = file.readUInt16LE(body + 14);
      if (format !== 1 || channels !== 1 || bits !== 16)
        throw new Error(`expected 16-bit mono PCM, got format ${format}, ${channels} ch, ${bits} bit`);
      rate = file.readUInt32LE(body + 4);
    } else if (id === 'data') {
      if (!rate) throw new Error('WAV data before its fmt chunk');
      const samples = new Int16Array(Math.floor(size / 2));
      for (let i = 0; i < samples.length; i++) samples[i] = file.readInt16LE(body + i * 2);
      return { samples, rate };
    }
    at = body + size + (size % 2);
  }
  throw new Error('WAV without a data chunk');
}

/** Band-limited resampling: each output sample is the input under a Blackman-windowed sinc. */
function resample(input: Int16Array, inRate: number, outRate: number): Float64Array {
  const output = new Float64Array(Math.floor((input.length * outRate) / inRate));
  const cutoff = CUTOFF_HZ / inRate;
  for (let n = 0; n < output.length; n++) {
    const centre = (n * inRate) / outRate;
    const first = Math.max(0, Math.ceil(centre - HALF_TAPS));
    const last = Math.min(input.length - 1, Math.floor(centre + HALF_TAPS));
    let sum = 0;
    for (let k = first; k <= last; k++) {
      const distance = k - centre;
      sum += (input[k] as number) * lowPass(distance, cutoff) * blackman(distance / HALF_TAPS);
    }
    output[n] = sum;
  }
  return output;
}

function lowPass(distance: number, cutoff: number): number {
  if (distance === 0) return 2 * cutoff;
  return Math.sin(2 * Math.PI * cutoff * distance) / (Math.PI * distance);
}

/** The window over [-1, 1]. */
function blackman(x: number): number {
  const t = (x + 1) / 2;
  return 0.42 - 0.5 * Math.cos(2 * Math.PI * t) + 0.08 * Math.cos(4 * Math.PI * t);
}

function trim(samples: Float64Array): Float64Array {
  const loud = (s: number) => Math.abs(s) > TRIM_LEVEL;
  const start = samples.findIndex(loud);
  const end = samples.findLastIndex(loud);
  if (start < 0) throw new Error('espeak-ng produced silence');
  return samples.subarray(start, end + 1);
}

/** G.711 µ-law: sign, a 3-bit segment and a 4-bit step, inverted (so silence is 0xFF). */
function encodeMuLaw(samples: Float64Array): Buffer {
  const out = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) {
    let value = Math.round(Math.max(-32768, Math.min(32767, samples[i] as number)));
    const sign = value < 0 ? 0x80 : 0;
    if (sign) value = -value;
    value = Math.min(value, 32635) + 0x84;
    const segment = Math.floor(Math.log2(value)) - 7;
    const step = (value >> (segment + 3)) & 0x0f;
    out[i] = ~(sign | (segment << 4) | step) & 0xff;
  }
  return out;
}

main();
