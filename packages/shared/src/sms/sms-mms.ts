import { utf8Bytes } from '../schemas/template.schema.ts';

/**
 * MMS pages (product-spec §3, §5): at most 3 pages, each with text, an image and/or a sound, none
 * empty, and the whole message (title, texts and media) under 100 KB, since carriers refuse a
 * larger one. Media travel inside the template as base64, so the size is counted from their
 * decoded bytes, the same way in the browser's size meter and on the server.
 */
export const MMS_PAGES_MAX = 3;
export const MMS_MAX_BYTES = 100 * 1024;
export const MMS_TITLE_MAX = 40;
export const MMS_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;
export const MMS_AUDIO_TYPES = ['audio/mpeg', 'audio/amr', 'audio/midi', 'audio/wav'] as const;
export type MmsImageType = (typeof MMS_IMAGE_TYPES)[number];
export type MmsAudioType = (typeof MMS_AUDIO_TYPES)[number];

export interface MmsMedia {
  name: string;
  type: string;
  /** The file's bytes, base64 (no data: prefix). */
  data: string;
}

export interface MmsPage {
  text?: string;
  image?: MmsMedia;
  audio?: MmsMedia;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function isBase64(data: string): boolean {
  return data.length % 4 === 0 && BASE64.test(data);
}

/** Decoded length of base64 data. */
export function base64Bytes(data: string): number {
  if (data.length === 0) return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

/** The MMS's size as carriers count it: the title and texts in UTF-8 plus the media's bytes. */
export function mmsBytes(title: string, pages: readonly MmsPage[]): number {
  let total = utf8Bytes(title);
  for (const page of pages) {
    total += utf8Bytes(page.text ?? '');
    if (page.image) total += base64Bytes(page.image.data);
    if (page.audio) total += base64Bytes(page.audio.data);
  }
  return total;
}

export function isMmsPageEmpty(page: MmsPage): boolean {
  return !page.text?.trim() && !page.image && !page.audio;
}

/** The first bytes of each accepted media type, to refuse a file whose content is not what it says. */
const SIGNATURES: Record<string, number[][]> = {
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/png': [[0x89, 0x50, 0x4e, 0x47]],
  'image/gif': [[0x47, 0x49, 0x46, 0x38]],
  'audio/mpeg': [
    [0x49, 0x44, 0x33],
    [0xff, 0xfb],
    [0xff, 0xf3],
    [0xff, 0xf2],
  ],
  'audio/amr': [[0x23, 0x21, 0x41, 0x4d, 0x52]],
  'audio/midi': [[0x4d, 0x54, 0x68, 0x64]],
  'audio/wav': [[0x52, 0x49, 0x46, 0x46]],
};

/** Whether the media's bytes start as its declared type's files do. */
export function mediaMatchesType(media: MmsMedia): boolean {
  const signatures = SIGNATURES[media.type];
  if (!signatures || !isBase64(media.data)) return false;
  const head = decodeHead(media.data.slice(0, 12));
  return signatures.some((sig) => sig.every((byte, i) => head[i] === byte));
}

function decodeHead(data: string): number[] {
  const binary = atob(data);
  return Array.from(binary, (char) => char.charCodeAt(0));
}
