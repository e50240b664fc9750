import type dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import { sipToken } from './sip-message.ts';

/**
 * The media of a voice verification call: what the call offers (SDP, RFC 4566: one audio stream,
 * G.711 µ-law, RTP payload type 0 at 8 kHz), what it plays (the recorded prompts under
 * server/assets/voice, made by scripts/make-voice-prompts.ts), and how the audio is cut into RTP
 * packets (RFC 3550: 20 ms, 160 samples each).
 *
 * The call reads the code twice: the lead-in, each digit with a short pause, a longer pause, and
 * the digits again, so a listener who missed a digit the first time hears it the second.
 */
export type VoiceLanguage = 'zh-cn' | 'en';

export const SAMPLE_RATE = 8000;
/** Samples (and µ-law bytes) per 20 ms packet. */
export const PACKET_SAMPLES = 160;
export const PACKET_MS = 20;
/** µ-law's encoding of a zero sample. */
export const MU_LAW_SILENCE = 0xff;
const PCMU = 0;

/** The silences the call inserts, in samples. */
export const VOICE_PAUSES = {
  afterLeadIn: 0.4 * SAMPLE_RATE,
  betweenDigits: 0.25 * SAMPLE_RATE,
  beforeRepeat: 1 * SAMPLE_RATE,
} as const;

const ASSETS = new URL('../../../assets/voice/', import.meta.url);

/** A call's audio as µ-law bytes, and where its first reading of the code ends. */
export interface CodeAudio {
  audio: Buffer;
  firstReadingEnd: number;
}

const prompts = new Map<string, Buffer>();

function prompt(language: VoiceLanguage, name: string): Buffer {
  const key = `${language}/${name}`;
  let bytes = prompts.get(key);
  if (!bytes) {
    bytes = readFileSync(new URL(`${key}.ul`, ASSETS));
    prompts.set(key, bytes);
  }
  return bytes;
}

/** The lead-in, the digits, a pause, the digits again; padded with silence to whole packets. */
export function codeAudio(code: string, language: VoiceLanguage): CodeAudio {
  if (!/^\d+$/.test(code)) throw new Error('a voice code is digits only');
  const silence = (samples: number) => Buffer.alloc(samples, MU_LAW_SILENCE);
  const digits = code
    .split('')
    .flatMap((digit, i) => [
      ...(i > 0 ? [silence(VOICE_PAUSES.betweenDigits)] : []),
      prompt(language, digit),
    ]);
  const first = [prompt(language, 'lead-in'), silence(VOICE_PAUSES.afterLeadIn), ...digits];
  const firstReadingEnd = first.reduce((n, b) => n + b.length, 0);
  const audio = Buffer.concat([...first, silence(VOICE_PAUSES.beforeRepeat), ...digits]);
  const padding = (PACKET_SAMPLES - (audio.length % PACKET_SAMPLES)) % PACKET_SAMPLES;
  return { audio: Buffer.concat([audio, silence(padding)]), firstReadingEnd };
}

/** The SDP offer of a call: one µ-law audio stream at this address and port. */
export function sdpOffer(address: string, port: number): string {
  const session = Date.now();
  return [
    'v=0',
    `o=herald ${session} ${session} IN IP4 ${address}`,
    's=Herald voice code',
    `c=IN IP4 ${address}`,
    't=0 0',
    `m=audio ${port} RTP/AVP ${PCMU}`,
    `a=rtpmap:${PCMU} PCMU/${SAMPLE_RATE}`,
    `a=ptime:${PACKET_MS}`,
    'a=sendonly',
    '',
  ].join('\r\n');
}

/** Where an SDP answer wants the audio sent, or why it cannot be (no audio, no PCMU, port 0). */
export function sdpAnswerTarget(sdp: string): { address: string; port: number } | { problem: string } {
  const lines = sdp.split(/\r?\n/);
  const media = lines.findIndex((l) => l.startsWith('m=audio '));
  if (media < 0) return { problem: 'no audio stream in the answer' };
  const [, port = '0', , ...formats] = (lines[media] as string).split(/\s+/);
  if (Number(port) === 0) return { problem: 'the audio stream was declined' };
  if (!formats.includes(String(PCMU))) return { problem: 'PCMU (G.711 µ-law) was not accepted' };
  // A media-level c= overrides the session's.
  const connection = [...lines.slice(media), ...lines.slice(0, media)].find((l) => l.startsWith('c=IN IP4 '));
  const address = connection?.slice('c=IN IP4 '.length).trim();
  if (!address) return { problem: 'no connection address in the answer' };
  return { address, port: Number(port) };
}

/** Writes one call's RTP: a random SSRC, sequence and timestamp start, the marker on the first packet. */
export class RtpSender {
  private readonly ssrc = Number.parseInt(sipToken(4), 16) >>> 0;
  private sequence = Number.parseInt(sipToken(2), 16) & 0xffff;
  private timestamp = Number.parseInt(sipToken(4), 16) >>> 0;
  private first = true;

  packet(payload: Buffer): Buffer {
    const header = Buffer.alloc(12);
    header[0] = 0x80; // version 2, no padding, no extension, no CSRC
    header[1] = (this.first ? 0x80 : 0) | PCMU;
    header.writeUInt16BE(this.sequence, 2);
    header.writeUInt32BE(this.timestamp, 4);
    header.writeUInt32BE(this.ssrc, 8);
    this.first = false;
    this.sequence = (this.sequence + 1) & 0xffff;
    this.timestamp = (this.timestamp + payload.length) >>> 0;
    return Buffer.concat([header, payload]);
  }
}

/**
 * Streams µ-law audio as RTP to `target`, one packet per 20 ms against the clock, so a late timer
 * sends what is due at once instead of stretching the call. Answers a function that stops it.
 */
export function streamAudio(
  socket: dgram.Socket,
  target: { address: string; port: number },
  audio: Buffer,
  events: { sent: (bytes: number) => void; done: () => void },
): () => void {
  const sender = new RtpSender();
  const startedAt = performance.now();
  let index = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    while (index * PACKET_SAMPLES < audio.length && performance.now() - startedAt >= index * PACKET_MS) {
      const payload = audio.subarray(index * PACKET_SAMPLES, (index + 1) * PACKET_SAMPLES);
      socket.send(sender.packet(payload), target.port, target.address);
      index += 1;
      events.sent(index * PACKET_SAMPLES);
    }
    if (index * PACKET_SAMPLES >= audio.length) events.done();
    else timer = setTimeout(tick, Math.max(0, startedAt + index * PACKET_MS - performance.now()));
  };
  tick();
  return () => clearTimeout(timer);
}
